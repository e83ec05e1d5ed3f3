/// A ``BatchUpdateRequest`` checked and compiled for the store: which rows (a fetch query on `t0`), what to set,
/// and which computed columns to check once SQLite has computed them.
struct BatchUpdatePlan {
    /// `column = sql` with the arguments of `sql`.
    struct Assignment {
        let column: String
        let sql: String
        let arguments: [SQLiteValue]
    }

    /// A column set by a ``BatchUpdateExpression``: its new values are read back (`RETURNING`) and checked
    /// against the attribute, since SQL arithmetic can leave an integer's range or give nil.
    struct Check {
        let attribute: AttributeDescription
        let column: String
        /// The expression as written, for the error message.
        let expression: String

        /// `nil` when `value` fits the attribute, otherwise what is wrong with it.
        func problem(with value: SQLiteValue) -> String? {
            let type = attribute.attributeType
            switch value {
            case .null:
                return attribute.isOptional ? nil : "gives nil, but \(attribute.name) is required"
            case .integer(let number):
                switch type {
                case .integer16 where Int16(exactly: number) == nil: return "gives \(number), out of range for integer16"
                case .integer32 where Int32(exactly: number) == nil: return "gives \(number), out of range for integer32"
                default: return nil
                }
            case .real(let number):
                // SQLite turns an integer result that overflows 64 bits into a real.
                return type == .double || type == .float ? nil : "gives \(number), out of range for \(type.rawValue)"
            case .text, .blob:
                return "gives a value that is not a number"
            }
        }

        /// A computed value as it came out of SQLite, for the error (it need not fit the attribute).
        static func persistentValue(_ value: SQLiteValue) -> PersistentValue {
            switch value {
            case .null: return .null
            case .integer(let number): return .integer(number)
            case .real(let number): return .double(number)
            case .text(let text): return .string(text)
            case .blob(let data): return .data(data)
            }
        }
    }

    let entity: EntityDescription
    let query: StoreQuery
    /// Read back the primary keys of the updated rows.
    let returnsKeys: Bool
    var assignments: [Assignment] = []
    var checks: [Check] = []
}

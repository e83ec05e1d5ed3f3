extension ManagedObject {
    /// The entity this class is the class of, in the models of the coordinators made so far (Core Data's
    /// `NSManagedObject.entity()`).
    ///
    /// Several models may claim the class — tests make a container per test, each with its own copy of the model —
    /// and when they all name the same entity, the newest model's answers. When they name different entities, or
    /// none does, there is no right answer: as Core Data's `+entity` fails then, this stops the program with a message
    /// saying which. Inside a context, `object.entity` is always the one to use.
    public class func entity() -> EntityDescription {
        let found = LoadedModels.entities(for: self)
        guard let first = found.first else {
            fatalError("\(self).entity(): no loaded model has an entity whose class is \(self); make a container or coordinator with the model first")
        }
        let names = Set(found.map(\.entityName))
        guard names.count == 1 else {
            fatalError("\(self).entity(): loaded models give \(self) to several entities (\(names.sorted().joined(separator: ", "))), so it cannot say which; use object.entity or the model's entitiesByName")
        }
        return first
    }
}

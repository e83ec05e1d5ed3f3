/// Core Data's class methods for reaching an entity by name through a context.
extension EntityDescription {
    /// The entity named `entityName` in the model of `context`'s coordinator, or `nil` when there is none.
    public static func entity(forEntityName entityName: String,
                              in context: ManagedObjectContext) -> EntityDescription? {
        context.model?.entitiesByName[entityName]
    }

    /// Makes an object of the entity named `entityName`, of the entity's class, and inserts it into `context`
    /// (Core Data's way of inserting without naming the class).
    ///
    /// Core Data raises an exception when the model has no such entity. Here the object returned belongs to no
    /// context and has no properties, and the next `save()` of `context` fails with 134020, naming the entity asked
    /// for and the entities there are.
    @discardableResult
    public static func insertNewObject(forEntityName entityName: String,
                                       into context: ManagedObjectContext) -> ManagedObject {
        context.checkQueue("insertNewObject(forEntityName:into:)")
        guard let entity = entity(forEntityName: entityName, in: context) else {
            let known = context.model?.entitiesListed ?? "It has no coordinator."
            context.recordMisuse(PersistenceError(.persistentStoreIncompatibleSchema,
                                                  "insertNewObject(forEntityName:into:): the model has no entity named '\(entityName)'. \(known)",
                                                  entityName: entityName))
            return ManagedObject(entity: EntityDescription(name: entityName, properties: []), insertInto: nil)
        }
        return entity.managedObjectClass.init(entity: entity, insertInto: context)
    }
}

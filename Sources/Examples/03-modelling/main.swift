import Foundation
@_spi(ModelLoading) import Persistence

// Lesson 3's runnable example: a model written in code — a recipe with ordered steps — and what its attributes,
// relationships and delete rules do once objects are saved. `swift run lessons run 3`.

// region: model
let cookbook = try ManagedObjectModel(entities: [
    EntityDescription(name: "Recipe", managedObjectClass: Recipe.self, properties: [
        .attribute("title", .string, optional: false),
        .attribute("servings", .integer16, optional: false, defaultValue: 2),
        .toMany("steps", "Step", inverse: "recipe", ordered: true, deleteRule: .cascade),
    ]),
    EntityDescription(name: "Step", managedObjectClass: Step.self, properties: [
        .attribute("text", .string, optional: false),
        .attribute("minutes", .integer16),
        .toOne("recipe", "Recipe", inverse: "steps", deleteRule: .nullify),
    ]),
])
// endregion: model

print("1. The model, built in code:")
for line in cookbook.description.split(separator: "\n") { print("   \(line)") }

let container = PersistentContainer(name: "Cookbook", managedObjectModel: cookbook)
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("   could not load the store: \(error)") }
}
let context = container.viewContext

/// Titles and steps as a context that has never seen them reads them from the store.
func freshRead() throws -> [String] {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait {
        let request: FetchRequest<Recipe> = Recipe.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(keyPath: \Recipe.title, ascending: true)]
        return try reader.fetch(request).map { "\($0.title) (\($0.servings)): " + ($0.steps.array as! [Step]).map(\.text).joined(separator: " → ") }
    }
}

print("")
print("2. An ordered to-many relationship keeps its order through a save:")
// region: ordered
let pancakes = Recipe(context: context)
pancakes.title = "Pancakes"                        // servings keeps its default, 2
for text in ["Whisk", "Rest", "Fry", "Serve"] {
    let step = Step(context: context)
    step.text = text
    step.recipe = pancakes                         // the inverse, pancakes.steps, gains the step at the end
}
try context.save()
var steps = pancakes.steps.array as! [Step]        // the ordered set's objects, as steps
steps.swapAt(1, 2)                                 // reorder: change the array, then give it back as a set
pancakes.steps = NSOrderedSet(array: steps)
try context.save()
// endregion: ordered
for line in try freshRead() { print("   \(line)") }

print("")
print("3. A mandatory attribute is checked when the context saves, not when the object is made:")
// region: mandatory
let untitled = Step(context: context)
untitled.recipe = pancakes                         // no text
do {
    try context.save()
} catch let error as NSError {
    // Core Data's validation errors carry the object and the key in userInfo.
    let object = error.userInfo[NSValidationObjectErrorKey] as? ManagedObject
    let key = error.userInfo[NSValidationKeyErrorKey] as? String
    print("   save failed: error \(error.code) on \(object?.entity.name ?? "?").\(key ?? "?"): \(error.localizedDescription)")
    context.rollback()                             // lesson 5 explains why this matters
}
// endregion: mandatory
print("   after rollback the context has changes: \(context.hasChanges)")

print("")
print("4. Delete rules: nullify from step to recipe, cascade from recipe to steps.")
// region: delete-rules
context.delete(pancakes.steps[3] as! Step)         // "Serve": the step goes, the recipe stays
try context.save()
print("   deleted one step:     \(try freshRead())")
context.delete(pancakes)                           // the recipe takes its steps with it
try context.save()
print("   deleted the recipe:   \(try freshRead()), steps left \(try context.count(for: Step.fetchRequest()))")
// endregion: delete-rules

print("")
print("5. The model checks the classes: an unordered relationship for an array property is refused.")
do {
    _ = try ManagedObjectModel(entities: [
        EntityDescription(name: "Recipe", managedObjectClass: Recipe.self, properties: [
            .attribute("title", .string, optional: false),
            .attribute("servings", .integer16, optional: false, defaultValue: 2),
            .toMany("steps", "Step", inverse: "recipe"),            // forgot ordered: true
        ]),
        EntityDescription(name: "Step", managedObjectClass: Step.self, properties: [
            .attribute("text", .string, optional: false),
            .attribute("minutes", .integer16),
            .toOne("recipe", "Recipe", inverse: "steps"),
        ]),
    ])
    print("   accepted (unexpected)")
} catch {
    print("   \(error)")
}

print("")
print("6. The same model drawn in Xcode's format (Cookbook.xcdatamodeld, a resource of this program), found by name:")
// region: model-file
// The classes live in this program: name them, as the file says only "Recipe" and "Step".
let drawn = PersistentContainer(name: "Cookbook", bundle: .module,
                                managedObjectClasses: [Recipe.self, Step.self])
drawn.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
drawn.loadPersistentStores { _, error in
    if let error { print("   could not load: \(error)") }
}
let drawnModel = drawn.managedObjectModel
let recipeClass = drawnModel.entitiesByName["Recipe"]?.managedObjectClass ?? ManagedObject.self
print("   entities \(drawnModel.entities.map(\.name)); Recipe's class is \(recipeClass)")
print("   the same model as the one in code: \(drawnModel.entityVersionHashesByName == cookbook.entityVersionHashesByName)")
// endregion: model-file

print("")
print("7. A name with no model file behind it does not stop the program: the stores fail to load.")
// region: model-misspelt
let misspelt = PersistentContainer(name: "CookBook", bundle: .module)
misspelt.loadPersistentStores { _, error in
    let message = error?.localizedDescription ?? "loaded"
    print("   \(message.prefix(while: { $0 != "(" }))…")
}
// endregion: model-misspelt

import Foundation
@_spi(ModelLoading) import Persistence

// Lesson 3's runnable example: a model written in code with Core Data's API — recipes with ordered steps, and tags
// shared between recipes — and what its attributes, relationships and delete rules do once objects are saved.
// `swift run lessons run 3`.

// region: model
/// The cookbook's model, built as Core Data builds a model in code: descriptions made with `init()`, their fields
/// set one by one. (`orderedSteps: false` makes the mistake part 5 shows.)
func makeCookbook(orderedSteps: Bool = true) -> ManagedObjectModel {
    let recipe = EntityDescription()
    recipe.name = "Recipe"
    recipe.managedObjectClassName = NSStringFromClass(Recipe.self)   // the module's name, a dot, the class's
    let step = EntityDescription()
    step.name = "Step"
    step.managedObjectClassName = NSStringFromClass(Step.self)
    let tag = EntityDescription()
    tag.name = "Tag"                       // no class named: its objects are plain ManagedObjects

    let title = AttributeDescription()
    title.name = "title"
    title.attributeType = .stringAttributeType
    title.isOptional = false               // a new attribute is optional
    let servings = AttributeDescription()
    servings.name = "servings"
    servings.attributeType = .integer16AttributeType
    servings.isOptional = false
    servings.defaultValue = 2              // what a new recipe starts with
    let text = AttributeDescription()
    text.name = "text"
    text.attributeType = .stringAttributeType
    text.isOptional = false
    let minutes = AttributeDescription()
    minutes.name = "minutes"
    minutes.attributeType = .integer16AttributeType
    let label = AttributeDescription()
    label.name = "label"
    label.attributeType = .stringAttributeType
    label.isOptional = false

    let steps = RelationshipDescription()  // to-many: a new relationship's maxCount is 0, no limit
    steps.name = "steps"
    steps.destinationEntity = step
    steps.isOrdered = orderedSteps
    steps.deleteRule = .cascadeDeleteRule
    let recipeOfStep = RelationshipDescription()
    recipeOfStep.name = "recipe"
    recipeOfStep.destinationEntity = recipe
    recipeOfStep.maxCount = 1              // to-one
    recipeOfStep.isOptional = false        // every step belongs to a recipe
    recipeOfStep.deleteRule = .nullifyDeleteRule
    steps.inverseRelationship = recipeOfStep
    recipeOfStep.inverseRelationship = steps
    let tags = RelationshipDescription()   // many-to-many: both ends keep maxCount 0
    tags.name = "tags"
    tags.destinationEntity = tag
    let recipes = RelationshipDescription()
    recipes.name = "recipes"
    recipes.destinationEntity = recipe
    tags.inverseRelationship = recipes
    recipes.inverseRelationship = tags

    recipe.properties = [title, servings, steps, tags]
    step.properties = [text, minutes, recipeOfStep]
    tag.properties = [label, recipes]
    tag.uniquenessConstraints = [["label"]]
    let model = ManagedObjectModel()
    model.entities = [recipe, step, tag]
    return model
}

let cookbook = makeCookbook()
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
print("5. The model checks the classes when a container first uses it: unordered steps for an NSOrderedSet are refused.")
// region: model-refused
let unordered = PersistentContainer(name: "Cookbook", managedObjectModel: makeCookbook(orderedSteps: false))
unordered.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
unordered.loadPersistentStores { _, error in
    print("   \(error.map { "\($0)" } ?? "accepted (unexpected)")")
}
// endregion: model-refused

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
print("   entities \(drawnModel.entities.compactMap(\.name)); Recipe's class is \(recipeClass)")
print("   the same model as the one in code: \(drawnModel.entityVersionHashesByName == cookbook.entityVersionHashesByName)")
// endregion: model-file

print("")
print("7. A name with no model file behind it does not stop the program, and the stores still load.")
// region: model-misspelt
let misspelt = PersistentContainer(name: "CookBook", bundle: .module)   // logs "CoreData: error: Failed to load …"
misspelt.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
misspelt.loadPersistentStores { _, error in
    print("   load: \(error.map { "\($0)" } ?? "no error"); entities: \(misspelt.managedObjectModel.entities.count)")
}
do {
    _ = try misspelt.viewContext.fetch(FetchRequest<Recipe>(entityName: "Recipe"))
} catch let error as NSError {
    print("   first fetch: error \(error.code), \(error.localizedDescription.prefix(while: { $0 != ":" }))")
}
// endregion: model-misspelt

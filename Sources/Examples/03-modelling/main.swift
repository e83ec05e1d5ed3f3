import Foundation
@_spi(ModelLoading) import Persistence

// Lesson 3's runnable example: a cookbook's model written in code with Core Data's API — cuisines and their recipes,
// and meal plans that list recipes in the order they will be cooked — and what its attributes, relationships and
// delete rules do once objects are saved. `swift run lessons run 3`.

// region: model
/// `description` once `configure` has set its fields: each part of a model in code is made with `init()`, then set
/// field by field, and this writes that once for entities, attributes and relationships alike.
func made<Description: AnyObject>(_ description: Description, _ configure: (Description) -> Void) -> Description {
    configure(description)
    return description
}

/// The cookbook's model in code: the entities first, as the relationships name them, then each entity's properties.
/// (`orderedPlans: false` makes the mistake part 5 shows.)
func makeCookbook(orderedPlans: Bool = true) -> ManagedObjectModel {
    let cuisine = made(EntityDescription()) { $0.name = "Cuisine" }   // no class: its objects are plain ManagedObjects
    let recipe = made(EntityDescription()) {
        $0.name = "Recipe"
        $0.managedObjectClassName = NSStringFromClass(Recipe.self)     // "Module.Recipe", as Core Data looks it up
    }
    let plan = made(EntityDescription()) {
        $0.name = "MealPlan"
        $0.managedObjectClassName = NSStringFromClass(MealPlan.self)
    }

    // One cuisine, many recipes. The cuisine does not own them: while it has any, it cannot be deleted.
    let recipes = made(RelationshipDescription()) {
        $0.name = "recipes"
        $0.destinationEntity = recipe                 // maxCount stays 0: to-many, no limit
        $0.deleteRule = .denyDeleteRule
    }
    let cuisineOfRecipe = made(RelationshipDescription()) {
        $0.name = "cuisine"
        $0.destinationEntity = cuisine
        $0.maxCount = 1                               // to-one
        $0.isOptional = false                         // every recipe has a cuisine
    }                                                 // delete rule left as made, nullify: a deleted recipe leaves the list
    recipes.inverseRelationship = cuisineOfRecipe
    cuisineOfRecipe.inverseRelationship = recipes

    // Many plans, many recipes, and a plan keeps its dinners in order. Neither end owns the other.
    let dinners = made(RelationshipDescription()) {
        $0.name = "recipes"
        $0.destinationEntity = recipe
        $0.isOrdered = orderedPlans
    }
    let plans = made(RelationshipDescription()) {
        $0.name = "mealPlans"
        $0.destinationEntity = plan
    }
    dinners.inverseRelationship = plans
    plans.inverseRelationship = dinners

    cuisine.properties = [
        made(AttributeDescription()) {
            $0.name = "name"
            $0.attributeType = .stringAttributeType
            $0.isOptional = false                     // said on every attribute: Apple documents no default
        },
        recipes,
    ]
    cuisine.uniquenessConstraints = [["name"]]
    recipe.properties = [
        made(AttributeDescription()) {
            $0.name = "title"
            $0.attributeType = .stringAttributeType
            $0.isOptional = false
        },
        made(AttributeDescription()) {
            $0.name = "servings"
            $0.attributeType = .integer16AttributeType
            $0.isOptional = false
            $0.defaultValue = 2                       // what a new recipe starts with
        },
        made(AttributeDescription()) {                // optional, no default: nil until someone times it
            $0.name = "minutes"
            $0.attributeType = .integer16AttributeType
            $0.isOptional = true
        },
        cuisineOfRecipe, plans,
    ]
    plan.properties = [
        made(AttributeDescription()) {
            $0.name = "week"
            $0.attributeType = .stringAttributeType
            $0.isOptional = false
        },
        dinners,
    ]
    return made(ManagedObjectModel()) { $0.entities = [cuisine, recipe, plan] }
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

/// Each plan's dinners, and each cuisine's recipes, as a context that has never seen them reads them from the store.
func freshRead() throws -> [String] {
    let reader = container.newBackgroundContext()
    return try reader.performAndWait {
        let plans = FetchRequest<MealPlan>(entityName: "MealPlan")
        plans.sortDescriptors = [FetchSortDescriptor(keyPath: \MealPlan.week, ascending: true)]
        let cuisines = FetchRequest<ManagedObject>(entityName: "Cuisine")   // one: Italian
        let dinners = try reader.fetch(plans).map { plan in
            let titles = (plan.recipes.array as! [Recipe]).map(\.title)
            return "\(plan.week): " + (titles.isEmpty ? "none" : titles.joined(separator: " → "))
        }
        return try dinners + reader.fetch(cuisines).map { cuisine in
            let titles = (cuisine.value(forKey: "recipes") as! Set<Recipe>).map(\.title).sorted()
            return "\(cuisine.value(forKey: "name") as! String): " + titles.joined(separator: ", ")
        }
    }
}

print("")
print("2. An ordered relationship keeps its order through a save, on a many-to-many as on any to-many:")
// region: ordered
let italian = ManagedObject(entity: cookbook.entitiesByName["Cuisine"]!, insertInto: context)
italian.setValue("Italian", forKey: "name")           // no class: key-value coding
var dishes: [String: Recipe] = [:]
for (title, minutes) in [("Risotto", 40), ("Minestrone", 60), ("Tiramisu", nil)] as [(String, Int?)] {
    let recipe = Recipe(context: context)               // servings keeps its default, 2
    recipe.title = title
    recipe.minutes = minutes.map { NSNumber(value: $0) }  // nil stays nil: an optional number
    recipe.cuisine = italian                            // the inverse, the cuisine's recipes, gains the recipe
    dishes[title] = recipe
}
let thisWeek = MealPlan(context: context)
thisWeek.week = "2026-W48"
thisWeek.recipes = NSOrderedSet(array: [dishes["Minestrone"]!, dishes["Risotto"]!, dishes["Tiramisu"]!])
let nextWeek = MealPlan(context: context)
nextWeek.week = "2026-W49"
nextWeek.recipes = NSOrderedSet(array: [dishes["Risotto"]!])   // a recipe may be in several plans
try context.save()
var dinners = thisWeek.recipes.array as! [Recipe]       // the ordered set's objects, as recipes
dinners.swapAt(0, 1)                                     // reorder: change the array, then give it back as a set
thisWeek.recipes = NSOrderedSet(array: dinners)
try context.save()
// endregion: ordered
for line in try freshRead() { print("   \(line)") }
print("   Risotto is in \(dishes["Risotto"]!.mealPlans.count) plans; Tiramisu takes \(dishes["Tiramisu"]!.minutes?.intValue.description ?? "an unknown time")")

print("")
print("3. Mandatory values are checked when the context saves, not when the object is made:")
// region: mandatory
let draft = Recipe(context: context)                   // no title, no cuisine
do {
    try context.save()
} catch let error as NSError {
    // Several problems at once: 1560, with one error per problem under NSDetailedErrorsKey.
    let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [error]
    print("   save failed: error \(error.code), \(details.count) problems")
    for detail in details {
        let object = detail.userInfo[NSValidationObjectErrorKey] as? ManagedObject
        let key = detail.userInfo[NSValidationKeyErrorKey] as? String
        print("   - error \(detail.code) on \(object?.entity.name ?? "?").\(key ?? "?")")
    }
    context.rollback()                                   // lesson 5 explains why this matters
}
// endregion: mandatory
print("   after rollback the context has changes: \(context.hasChanges); the draft is gone: \(draft.managedObjectContext == nil)")

print("")
print("4. Delete rules: deny from cuisine to recipes, nullify everywhere else.")
// region: delete-rules
context.delete(italian)                                 // deny: the delete is allowed, the save is not
do {
    try context.save()
} catch let error as NSError {
    print("   deleting the cuisine: error \(error.code), it still has recipes")
    context.rollback()
}
context.delete(dishes["Risotto"]!)                      // nullify: it leaves its cuisine and both plans
try context.save()
print("   deleted Risotto:   \(try freshRead().joined(separator: "; "))")
context.delete(nextWeek)                                // nullify: the plan goes, its recipes stay
try context.save()
print("   deleted a plan:    \(try freshRead().joined(separator: "; "))")
// endregion: delete-rules

print("")
print("5. Persistence (not Core Data) holds the classes against the model: unordered recipes for an NSOrderedSet.")
// region: model-refused
let unordered = PersistentContainer(name: "Cookbook", managedObjectModel: makeCookbook(orderedPlans: false))
unordered.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
unordered.loadPersistentStores { _, error in
    print("   \(error.map { "\($0)" } ?? "accepted (unexpected)")")
}
// endregion: model-refused

print("")
print("6. The same model drawn in Xcode's format (Cookbook.xcdatamodeld, a resource of this program), found by name:")
// region: model-file
// The classes live in this program: name them, as the file says only "Recipe" and "MealPlan".
let drawn = PersistentContainer(name: "Cookbook", bundle: .module,
                                managedObjectClasses: [Recipe.self, MealPlan.self])
drawn.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
drawn.loadPersistentStores { _, error in
    if let error { print("   could not load: \(error)") }
}
let drawnModel = drawn.managedObjectModel
let recipeClass = drawnModel.entitiesByName["Recipe"]?.managedObjectClass ?? ManagedObject.self
print("   entities \(drawnModel.entities.compactMap(\.name)); Recipe's class is \(recipeClass)")
print("   the same model as the one in code: \(drawnModel.entityVersionHashesByName == cookbook.entityVersionHashesByName)")
// endregion: model-file

import Foundation
import KataSupport
import Persistence

// Lesson 8's runnable example: a blog's post editor, with sheets nested inside it — contexts three levels deep. Each
// save goes one level up; a sheet reads through the editor and the view context; a new author keeps a temporary ID
// in the sheet unless it asks for a permanent one; a publish that fails in the view context, and how the app opens
// the post again; a private-queue child that tidies titles and reports what it changed, next to a background context
// on the store.
// `swift run lessons run 8`.

let container = PersistentContainer(name: BlogModel.name, managedObjectModel: try BlogModel.make())
container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
container.loadPersistentStores { _, error in
    if let error { print("could not load the store: \(error)") }
}
let viewContext = container.viewContext

/// The posts' titles as the store has them, read through a context of its own on the main queue.
func storedTitles() throws -> [String] {
    let reader = ManagedObjectContext(.mainQueue)
    reader.persistentStoreCoordinator = container.persistentStoreCoordinator
    let request: FetchRequest<Post> = Post.fetchRequest()
    request.sortDescriptors = [FetchSortDescriptor(keyPath: \Post.title, ascending: true)]
    return try reader.fetch(request).map(\.title)
}

/// The post's likes as the store has them, read through a context of its own.
func storedLikes(_ id: ManagedObjectID) throws -> Int64 {
    let reader = ManagedObjectContext(.mainQueue)
    reader.persistentStoreCoordinator = container.persistentStoreCoordinator
    return (try reader.existingObject(with: id) as? Post)?.likes ?? -1
}

/// A short form of an error: its code and message, object IDs (which differ from run to run) left out.
func describe(_ error: any Error) -> String {
    let error = error as NSError
    let message = error.localizedDescription.replacingOccurrences(of: "<x-coredata:[^>]*>", with: "<id>", options: .regularExpression)
    return "error \(error.code) (\(message))"
}

/// Looks `object` up in `context`, or says why it cannot be found there.
func lookUp(_ id: ManagedObjectID, in context: ManagedObjectContext) -> String {
    do {
        return "finds \"\((try context.existingObject(with: id) as? User)?.name ?? "?")\""
    } catch {
        return "cannot find it: \(describe(error))"
    }
}

let ada = User(context: viewContext)
ada.name = "Ada"
let post = Post(context: viewContext)
post.title = "Marsh notes"
post.author = ada
try viewContext.save()

print("1. Each save goes one level up")
// region: one-level-up
let editor = ManagedObjectContext(.mainQueue)
editor.parent = viewContext                                  // the post's editor screen
let titleSheet = ManagedObjectContext(.mainQueue)
titleSheet.parent = editor                                   // a sheet the editor opens: a grandchild
let postInSheet = try titleSheet.existingObject(with: post.objectID) as? Post
postInSheet?.title = "Spring at the marsh"
try titleSheet.save()                                        // into the editor, and no further
// endregion: one-level-up
/// Where the new title has got to: the editor, the view context, the store.
@MainActor func follow(_ step: String) throws {
    let inEditor = (try editor.existingObject(with: post.objectID) as? Post)?.title ?? "-"
    print("   \(step) editor \"\(inEditor)\" · view context \"\(post.title)\" · store \(try storedTitles())")
}
try follow("sheet saved:       ")
try editor.save()
try follow("editor saved:      ")
try viewContext.save()
try follow("view context saved:")

print("")
print("2. A sheet's Done and Cancel")
let postInEditor = try editor.existingObject(with: post.objectID) as? Post
postInEditor?.body = "Teal and lapwing on the east pool."  // the editor's own unsaved work
// region: nothing-to-save
let tagSheet = ManagedObjectContext(.mainQueue)
tagSheet.parent = editor
_ = try tagSheet.existingObject(with: post.objectID)         // the sheet shows the post; the user types nothing
print("   nothing typed: the sheet has changes? \(tagSheet.hasChanges); the editor has changes? \(editor.hasChanges) "
    + "(its body text)")
// endregion: nothing-to-save
// region: discard
var renameSheet: ManagedObjectContext? = ManagedObjectContext(.mainQueue)
renameSheet?.parent = editor
(try renameSheet?.existingObject(with: post.objectID) as? Post)?.title = "Marsh diary"
renameSheet = nil                                            // Cancel: the sheet's title goes with it
// endregion: discard
print("   after the rename sheet's Cancel: the editor's title \"\(postInEditor?.title ?? "-")\", its body kept? "
    + "\(postInEditor?.body.isEmpty == false); the view context has changes? \(viewContext.hasChanges)")

print("")
print("3. A grandchild reads through both its ancestors")
let draft = Post(context: editor)                            // a second post, so far only in the editor
draft.title = "Owl pellets"
ada.name = "Ada L."                                          // and an unsaved change in the view context
// region: reads-through
let picker = ManagedObjectContext(.mainQueue)
picker.parent = editor                                       // a grandchild of the view context
let authors = try picker.fetch(User.fetchRequest()).map(\.name)
let titles = try picker.fetch(Post.fetchRequest()).map(\.title).sorted()
let draftInPicker = try picker.existingObject(with: draft.objectID) as? Post
// endregion: reads-through
print("   the picker fetches authors \(authors) and posts \(titles)")
print("   it finds the editor's unsaved draft by its temporary ID: \"\(draftInPicker?.title ?? "-")\"")
let onStore = ManagedObjectContext(.mainQueue)
onStore.persistentStoreCoordinator = container.persistentStoreCoordinator
print("   a context on the store fetches authors \(try onStore.fetch(User.fetchRequest()).map(\.name))", terminator: "")
do {
    _ = try onStore.existingObject(with: draft.objectID)
    print(" and finds the draft")
} catch {
    print(" and cannot find the draft: \(describe(error))")
}
try viewContext.save()                                       // the rename was wanted; the editor is not saved
print("")
print("4. A new author keeps a temporary ID in the sheet")
let postEditor = ManagedObjectContext(.mainQueue)
postEditor.parent = viewContext
// region: temporary-id
let authorSheet = ManagedObjectContext(.mainQueue)
authorSheet.parent = postEditor
let grace = User(context: authorSheet)
grace.name = "Grace"
try authorSheet.save()                                       // into the post's editor
try postEditor.save()                                        // into the view context
try viewContext.save()                                       // Grace is in the store now, under a permanent ID…
print("   after three saves, Grace's ID in the sheet is temporary? \(grace.objectID.isTemporaryID)")
// endregion: temporary-id
let background = container.newBackgroundContext()
let graceID = grace.objectID
background.performAndWait { print("   another context looks Grace up by that ID and \(lookUp(graceID, in: background))") }
grace.name = "Grace H."
do {
    try authorSheet.save()
    try postEditor.save()
    print("   a second edit of Grace saved through the sheet and the editor")
} catch {
    print("   a second edit of Grace, saved through the sheet and the editor: \(describe(error))")
}
print("   with obtainPermanentIDs(for:) before the sheet's save:")
// region: permanent-id
let secondSheet = ManagedObjectContext(.mainQueue)
secondSheet.parent = postEditor
let mary = User(context: secondSheet)
mary.name = "Mary"
let maryPost = Post(context: secondSheet)
maryPost.title = "Fossil hunting"
maryPost.author = mary
try secondSheet.obtainPermanentIDs(for: [mary, maryPost])    // while both are still inserts in the sheet
try secondSheet.save()
try postEditor.save()
try viewContext.save()
// endregion: permanent-id
let maryID = mary.objectID
background.performAndWait {
    print("   Mary's ID is temporary? \(maryID.isTemporaryID); another context \(lookUp(maryID, in: background))")
}
mary.name = "Mary A."
try secondSheet.save()
try postEditor.save()
try viewContext.save()
print("   a second edit of Mary saves too: the store's authors are \(try onStore.fetch(User.fetchRequest()).map(\.name).sorted())")

print("")
print("5. The editor's save works, the view context's fails")
let publish = ManagedObjectContext(.mainQueue)
publish.parent = viewContext
let postToPublish = try publish.existingObject(with: post.objectID) as? Post
postToPublish?.title = "Spring at the marsh, part 1"
let server = container.newBackgroundContext()                // meanwhile the server's count of likes arrives
let postID = post.objectID
try server.performAndWait {
    (try server.existingObject(with: postID) as? Post)?.likes = 12
    try server.save()
}
try publish.save()
print("   the editor's save worked; the view context holds the new title, unsaved")
do {
    try viewContext.save()
} catch {
    print("   the view context's save: \(describe(error))")
}
print("   the editor has changes? \(publish.hasChanges): its Publish has nothing left to save, though it shows "
    + "\"\(postToPublish?.title ?? "-")\"")
// region: reopen
viewContext.refresh(post, mergeChanges: false)               // drop the title pushed in, read the post again
print("   refreshed: the view context has changes? \(viewContext.hasChanges); its post: \"\(post.title)\", "
    + "\(post.likes) likes")
let reopened = ManagedObjectContext(.mainQueue)              // a new editor, on the post as the store has it
reopened.parent = viewContext
(try reopened.existingObject(with: post.objectID) as? Post)?.title = "Spring at the marsh, part 1"
try reopened.save()
try viewContext.save()
// endregion: reopen
print("   published from a new editor: the store holds \(try storedTitles())")

print("")
print("6. Document 004's set-up: a private-queue child of the view context")
// region: private-child
let tidier = ManagedObjectContext(.privateQueue)
tidier.parent = viewContext
// The block is queued on the child's own queue; the main thread awaits its report instead of blocking.
let report: [String] = try await tidier.perform {
    let request: FetchRequest<Post> = Post.fetchRequest()
    request.sortDescriptors = [FetchSortDescriptor(keyPath: \Post.title, ascending: true)]
    var retitled: [String] = []
    for entry in try tidier.fetch(request) where entry.title != entry.title.capitalized {   // through viewContext
        retitled.append("\"\(entry.title)\" → \"\(entry.title.capitalized)\"")
        entry.title = entry.title.capitalized
    }
    if tidier.hasChanges { try tidier.save() }               // into viewContext, which is on the main queue
    return retitled
}
// endregion: private-child
print("   the tidier reports " + report.joined(separator: ", "))
print("   the view context holds \(viewContext.updatedObjects.count) changed titles, unsaved; the store holds "
    + "\(try storedTitles())")
try viewContext.save()
print("   after the view context's save: the store holds \(try storedTitles())")
// region: sibling
let sibling = container.newBackgroundContext()               // on the store, not a child
try sibling.performAndWait {
    (try sibling.existingObject(with: postID) as? Post)?.likes = 40
    try sibling.save()                                       // straight into the store
}
// endregion: sibling
print("   a background context set the post's likes to \(try storedLikes(postID)) in the store; the view context's post still "
    + "has \(post.likes) (lesson 9)")

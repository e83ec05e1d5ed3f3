// `import CoreData` brings Foundation with it on Apple platforms, and Core Data code relies on that: a model file
// that imports only Core Data still uses `Date`, `URL` and `UUID`. Importing Persistence does the same.
@_exported import Foundation

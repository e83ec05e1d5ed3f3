import Foundation
import KataSupport
@_spi(ConcurrencyDebugging) @_spi(TestHarness) import Persistence
import XCTest

/// The base of every kata suite.
///
/// - Each kata gets a fresh container on a private in-memory store (``container``, ``context``): lesson 1's idea,
///   used by every later lesson.
/// - ``kata(_:in:_:filePath:line:_:)`` runs a kata's body and turns whatever goes wrong — a failed check, a starter that
///   still throws ``KataNotDone``, any other error — into one failure that names the lesson, the kata, the file and
///   the function to change.
/// - Persistence's concurrency debugger is on in every kata: a context or managed object used off its context's
///   queue fails the kata with a message naming the rule, instead of stopping the whole run.
/// - A malformed `FetchPredicate(format:)` or a predicate that cannot be evaluated, which stops an app (as Core Data
///   raises), fails the kata with the error's message instead (``PredicateErrorLog``); so does nil read through a
///   non-optional `@Managed` property such as a `Date`, which Persistence stops for as a device may (``NilReadLog``),
///   a mistake Core Data raises for at the call that no save threw (``MisuseLog``), and a change to a model a
///   coordinator already uses.
/// - A watchdog ends the run with a message if a kata hangs (a deadlock between two queues), because a hung
///   test would hide every result after it.
///
/// Katas never force-unwrap what learner code returns; ``require(_:_:filePath:line:)`` fails cleanly instead.
class KataCase: XCTestCase {
    /// The lesson this suite belongs to; each suite overrides it.
    class var lesson: Int { 0 }
    /// The lesson's folder under `Sources/Workbook`, e.g. `01-testing`.
    class var folder: String { "" }
    /// The model of the fresh store each kata gets.
    class func makeModel() throws -> ManagedObjectModel {
        throw KataSetupError(message: "\(self) does not say which model its katas use (override makeModel())")
    }

    /// Runs the main queue (where merges into the view context happen) until `condition` holds, for at most
    /// `timeout` seconds. Returns whether it held.
    func eventually(_ timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            if Date() > deadline { return false }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
        }
        return true
    }

    /// Lets the main queue run for `seconds`, so that anything already queued there has happened before a kata
    /// checks that something did *not* happen.
    func settle(_ seconds: TimeInterval = 0.2) {
        RunLoop.current.run(until: Date(timeIntervalSinceNow: seconds))
    }

    /// `keyPath` of every stored `Object`, in its order: read by a new background context, so it is what the store
    /// holds, not what some context has in memory.
    func storedValues<Object: ManagedObject, Value>(_ keyPath: KeyPath<Object, Value>,
                                                    in container: PersistentContainer? = nil) throws -> [Value] {
        let reader = (container ?? self.container).newBackgroundContext()
        return try reader.performAndWait {
            let request = FetchRequest<Object>(entityName: Object.entity().name!)
            request.sortDescriptors = [FetchSortDescriptor(keyPath: keyPath, ascending: true)]
            return try reader.fetch(request).map { $0[keyPath: keyPath] }
        }
    }

    /// How long one kata may run before the watchdog stops the run.
    static let timeLimit: TimeInterval = 30

    /// The kata's own container, on a store nobody else sees.
    private(set) var container: PersistentContainer!
    /// The container's main-queue context (katas run on the main thread).
    var context: ManagedObjectContext { container.viewContext }

    private var current: (number: Int, file: String, function: String)?
    private var watchdog: DispatchWorkItem?
    /// Off-queue uses reported by the concurrency debugger and not yet turned into a failure.
    private static let offQueue = OffQueueLog()
    /// Predicate programming errors (formats that did not parse, evaluations that failed), not yet turned into a
    /// failure.
    private static let predicateErrors = PredicateErrorLog()
    /// Nil read through non-optional properties, not yet turned into a failure.
    private static let nilReads = NilReadLog()
    /// Mistakes a context recorded and no save threw, not yet turned into a failure.
    private static let misuses = MisuseLog()
    /// Changes to a model already in use, which Core Data raises for ("Can't modify an immutable model").
    private static let modelChanges = ReportLog<PersistenceError>()

    override func setUpWithError() throws {
        try super.setUpWithError()
        // region: concurrency-debugger
        let log = Self.offQueue
        ConcurrencyDebugging.violationHandler = { violation in log.append(violation) }
        ConcurrencyDebugging.isEnabled = true
        // endregion: concurrency-debugger
        _ = log.take()
        let formats = Self.predicateErrors
        FetchPredicate.programmingErrorHandling = .report { error in formats.append(error) }
        _ = formats.take()
        let nilReads = Self.nilReads
        ManagedObject.nilReadHandling = .report { read in nilReads.append(read) }
        _ = nilReads.take()
        let misuses = Self.misuses
        ManagedObjectContext.droppedMisuseHandler = { error in misuses.append(error) }
        _ = misuses.take()
        let modelChanges = Self.modelChanges
        ManagedObjectModel.programmingErrorHandling = .report { error in modelChanges.append(error) }
        _ = modelChanges.take()
        container = try Self.makeInMemoryContainer(model: try Self.makeModel())
        startWatchdog()
    }

    override func tearDownWithError() throws {
        watchdog?.cancel()
        watchdog = nil
        container = nil
        current = nil
        // The view context goes with the container: a mistake made there shows only now.
        for problem in Self.takeReportedProblems() { report(problem, filePath: #filePath, line: #line) }
        ManagedObjectContext.droppedMisuseHandler = nil
        // The handler stays installed: a block still running on another queue must find one rather than stop
        // the process (with no handler, a violation is fatal).
        ConcurrencyDebugging.isEnabled = false
        // Other suites of the same test run (a plain `swift test` runs the library's tests too) expect Core Data's
        // behaviour: a predicate's programming error stops the program.
        FetchPredicate.programmingErrorHandling = .stop
        ManagedObject.nilReadHandling = .stop
        ManagedObjectModel.programmingErrorHandling = .stop
        try super.tearDownWithError()
    }

    // region: fresh-store
    /// A loaded container on a private in-memory SQLite store: the URL `/dev/null` gives every container a store
    /// of its own, empty, gone when the container goes.
    ///
    /// Lesson 1's kata 3 asks a learner for this (plus a store file and the load error): solve it before reading on.
    static func makeInMemoryContainer(model: ManagedObjectModel) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Kata", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }
    // endregion: fresh-store

    // MARK: The learner's language

    /// Whether failure messages should be in Russian. `lessons check`, `watch` and `verify` pass the learner's
    /// language (`--lang`, or the default `lessons` uses) as `LESSONS_LANG`; a plain `swift test` follows
    /// `LESSONS_LANG`, else a Russian locale, as `lessons` does.
    static let inRussian: Bool = {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["LESSONS_LANG"], chosen == "ru" || chosen == "en" { return chosen == "ru" }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        return locale?.lowercased().hasPrefix("ru") ?? false
    }()

    /// `en`, or `ru` for a learner who reads Russian: what a suite of a lesson written in both languages says.
    func localized(_ en: @autoclosure () -> String, ru: @autoclosure () -> String) -> String {
        Self.inRussian ? ru() : en()
    }

    // MARK: Running a kata

    /// Runs kata `number`, whose work is `function` in `file` (relative to the lesson's folder). Every failure
    /// inside is reported with the lesson, the kata and where to work.
    func kata(_ number: Int, in file: String, _ function: String, filePath: StaticString = #filePath,
              line: UInt = #line, _ body: () throws -> Void) {
        current = (number, "Sources/Workbook/\(Self.folder)/\(file)", function)
        do {
            try body()
        } catch let notDone as KataNotDone {
            fail(localized("\(notDone.function) is not written yet: it still throws KataNotDone.",
                           ru: "тело \(notDone.function) ещё не написано: оно по-прежнему бросает KataNotDone."),
                 file: notDone.file, function: notDone.function, filePath: filePath, line: line)
        } catch is KataStop {
            // Already reported where it happened.
        } catch {
            fail("\(function) threw an error: \(error)", filePath: filePath, line: line)
        }
        for problem in Self.takeReportedProblems() {
            report(problem, filePath: filePath, line: line)
        }
        current = nil
    }

    /// Fails the kata with `message` unless `condition` holds, and ends it: the first problem is the one to fix,
    /// and checks after it would only repeat it in other words.
    func expect(_ condition: @autoclosure () throws -> Bool, _ message: @autoclosure () -> String,
                filePath: StaticString = #filePath, line: UInt = #line) throws {
        guard try !condition() else { return }
        fail(message(), filePath: filePath, line: line)
        throw KataStop()
    }

    /// The value, or a failure with `message` that ends the kata (nothing after it could make sense).
    func require<T>(_ value: T?, _ message: @autoclosure () -> String, filePath: StaticString = #filePath,
                    line: UInt = #line) throws -> T {
        guard let value else {
            fail(message(), filePath: filePath, line: line)
            throw KataStop()
        }
        return value
    }

    /// Runs `body`, which must throw an error of type `E`; returns that error. A ``KataNotDone`` is passed on (the
    /// kata reports it as "not written yet"); no error, or another type, fails the kata and ends it.
    func expectError<E: Error>(_ type: E.Type, _ message: @autoclosure () -> String,
                               filePath: StaticString = #filePath, line: UInt = #line,
                               _ body: () throws -> Void) throws -> E {
        do {
            try body()
        } catch let notDone as KataNotDone {
            throw notDone
        } catch let error as E {
            return error
        } catch {
            fail(message() + " It threw a different error instead: \(error)", filePath: filePath, line: line)
            throw KataStop()
        }
        fail(message() + " Nothing was thrown.", filePath: filePath, line: line)
        throw KataStop()
    }

    /// Reports a failure in the house style: what is wrong, then where to work and how to get a hint. What
    /// Persistence reported before it (an off-queue use, a predicate error, a nil read) comes first: it is the
    /// likelier cause of whatever the kata found.
    func fail(_ what: String, file: String? = nil, function: String? = nil, filePath: StaticString = #filePath,
              line: UInt = #line) {
        let problems = Self.takeReportedProblems()
        let what = problems.isEmpty ? what : problems.joined(separator: "\n") + "\nThe kata then found: " + what
        report(what, file: file, function: function, filePath: filePath, line: line)
    }

    /// What Persistence reported since the last look — off-queue uses, predicate errors, nil reads — each as the
    /// learner should read it, forgetting them. They come first in a failure: each is the likelier cause of
    /// whatever the kata found after it.
    private static func takeReportedProblems() -> [String] {
        var problems: [String] = []
        let offQueue = offQueue.take()
        if !offQueue.isEmpty { problems.append(OffQueueLog.message(for: offQueue)) }
        let formats = predicateErrors.take()
        if !formats.isEmpty { problems.append(PredicateErrorLog.message(for: formats, inRussian: inRussian)) }
        let reads = nilReads.take()
        if !reads.isEmpty { problems.append(NilReadLog.message(for: reads, inRussian: inRussian)) }
        let misuses = misuses.take()
        if !misuses.isEmpty { problems.append(MisuseLog.message(for: misuses, inRussian: inRussian)) }
        if let change = modelChanges.take().first {
            problems.append(inRussian
                ? "модель изменена после того, как её начал использовать координатор; Core Data здесь останавливает приложение: \(change.message)"
                : "the model was changed after a coordinator began to use it, where Core Data stops the app: \(change.message)")
        }
        return problems
    }

    private func report(_ what: String, file: String? = nil, function: String? = nil, filePath: StaticString,
                        line: UInt) {
        let lesson = Self.lesson
        let number = current.map { " · kata \($0.number)" } ?? ""
        let hint = current.map { "swift run lessons hint \(lesson) \($0.number)" } ?? "swift run lessons hint \(lesson)"
        let where_ = file ?? current?.file ?? "Sources/Workbook/\(Self.folder)"
        let function = function ?? current?.function
        let work = function.map { "\(where_), \($0)" } ?? where_
        XCTFail("Lesson \(lesson)\(number) — \(what)\nWork in \(work). Stuck? \(hint)",
                file: filePath, line: line)
    }

    // MARK: Watchdog

    /// A kata that does not finish within ``timeLimit`` has almost always deadlocked (a context waiting for the
    /// main queue while the main thread waits for it). XCTest cannot stop a test, so the watchdog prints what
    /// happened in the form `lessons check` reads and ends the process, rather than hang every later kata.
    private func startWatchdog() {
        let name = self.name
        let lesson = Self.lesson
        let item = DispatchWorkItem {
            let message = "Fatal error: Lesson \(lesson) — \(name) did not finish within \(Int(Self.timeLimit)) s. "
                + "Is a context waiting for a queue that is waiting for it (performAndWait inside performAndWait "
                + "of another context)? Stuck? swift run lessons hint \(lesson)\n"
            FileHandle.standardError.write(Data(message.utf8))
            fflush(nil)     // XCTest's own lines first, so the report shows which kata was running
            _exit(1)
        }
        watchdog = item
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.timeLimit, execute: item)
    }
}

import Foundation

/// Finds the XML of a model on disk and reads it: a `.xcdatamodeld` folder (the version its
/// `.xccurrentversion` names, or its only version), a `.xcdatamodel` folder (its `contents` file) or a
/// `contents` file itself.
struct ModelFileReader {
    let classes: ManagedObjectClassResolver

    /// What a model file declares, and where.
    struct Declarations {
        let file: URL
        let contents: ModelContentsReader.Result

        /// `error` (from the model's own checks, which know the entity and property) with the file and line where
        /// that entity or property is written.
        func locate(_ error: any Error) -> any Error {
            guard let error = error as? PersistenceError else { return error }
            let line = error.key.flatMap { key in error.entityName.flatMap { contents.lines["\($0).\(key)"] } }
                ?? error.entityName.flatMap { contents.lines[$0] }
            let prefix = "Invalid model: "
            let message = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            var located = "Invalid model (\(file.path)\(line.map { ", line \($0)" } ?? "")): " + message
            // A class that was found may point at one that was not (`Set<Movie>` with no Movie class found).
            let missing = contents.unresolvedClassNames.filter { name in
                message.contains(name.split(separator: ".").last.map(String.init) ?? name)
            }
            if !missing.isEmpty {
                located += " No class was found for \(missing.joined(separator: ", ")); pass them in managedObjectClasses or name their module."
            }
            return error.with(message: located, url: file)
        }
    }

    /// The entities, configurations and warnings of the model at `url`.
    func read(at url: URL) throws -> Declarations {
        let contents = try contentsFile(for: url)
        let data: Data
        do {
            data = try Data(contentsOf: contents)
        } catch {
            throw PersistenceError(.fileReadUnknown, "Could not read the model file \(contents.path): \(error.localizedDescription)", url: contents)
        }
        let root = try ModelFileElement.parse(data, file: contents)
        return Declarations(file: contents, contents: try ModelContentsReader(file: contents, classes: classes).read(root))
    }

    /// The `.xcdatamodeld` folder `url` is or lies in (a version folder or its `contents` file), or nil for a model
    /// that is not part of one.
    func modelFolder(for url: URL) throws -> URL? {
        var candidate = url.standardizedFileURL
        for _ in 0..<3 {
            if candidate.pathExtension == "xcdatamodeld" { return candidate }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    /// The `contents` file that holds the model at `url`.
    func contentsFile(for url: URL) throws -> URL {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw PersistenceError(.fileReadNoSuchFile, "There is no model at \(url.path).", url: url)
        }
        switch url.pathExtension {
        case "xcdatamodeld":
            return try contentsFile(for: currentVersion(of: url))
        case "xcdatamodel":
            let contents = url.appendingPathComponent("contents")
            guard FileManager.default.fileExists(atPath: contents.path) else {
                throw PersistenceError(.fileReadNoSuchFile, "The model version \(url.path) has no 'contents' file (the model's XML).", url: contents)
            }
            return contents
        case "mom", "momd", "omo":
            throw PersistenceError(.fileReadCorruptFile, "\(url.path) is a model compiled by Xcode's momc, which is a binary format this library cannot read. Use the source .xcdatamodeld (or .xcdatamodel) instead.", url: url)
        default:
            guard !isFolder.boolValue else {
                throw PersistenceError(.fileReadCorruptFile, "\(url.path) is a folder but not a .xcdatamodeld or .xcdatamodel.", url: url)
            }
            return url
        }
    }

    /// The version of a `.xcdatamodeld` folder to read: the one `.xccurrentversion` names, or the only one.
    private func currentVersion(of folder: URL) throws -> URL {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        let marker = folder.appendingPathComponent(".xccurrentversion")
        if FileManager.default.fileExists(atPath: marker.path) {
            let plist: Any
            do {
                plist = try PropertyListSerialization.propertyList(from: try Data(contentsOf: marker), format: nil)
            } catch {
                throw PersistenceError(.fileReadCorruptFile, "\(marker.path) is not a property list: \(error.localizedDescription)", url: marker)
            }
            guard let name = (plist as? [String: Any])?["_XCCurrentVersionName"] as? String else {
                throw PersistenceError(.fileReadCorruptFile, "\(marker.path) does not name the current version (its _XCCurrentVersionName key is missing).", url: marker)
            }
            guard versions.contains(name) else {
                throw PersistenceError(.fileReadNoSuchFile, "\(marker.path) names the current version '\(name)', which is not in the folder. Versions: \(versions.isEmpty ? "none" : versions.joined(separator: ", ")).", url: marker)
            }
            return folder.appendingPathComponent(name)
        }
        guard versions.count == 1, let only = versions.first else {
            throw PersistenceError(.fileReadNoSuchFile, versions.isEmpty
                ? "The model \(folder.path) holds no .xcdatamodel version."
                : "The model \(folder.path) holds \(versions.count) versions (\(versions.joined(separator: ", "))) but no .xccurrentversion file saying which one is current.",
                url: folder)
        }
        return folder.appendingPathComponent(only)
    }
}

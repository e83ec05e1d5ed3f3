#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `posix_spawn` file actions that are extensions to POSIX: the C module does not declare them (they sit
/// behind `_GNU_SOURCE`), so they are looked up at run time; nil where the C library lacks them.
enum SpawnExtensions {
    typealias FileActionWithPath = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?,
                                                   UnsafePointer<CChar>?) -> Int32
    typealias FileActionWithDescriptor = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?,
                                                         Int32) -> Int32

    /// `posix_spawn_file_actions_addchdir_np`: the child starts in another folder (glibc 2.29, macOS 10.15).
    static let addChangeDirectory: FileActionWithPath? = symbol("posix_spawn_file_actions_addchdir_np")

    /// `posix_spawn_file_actions_addclosefrom_np`: the child closes every descriptor from a number up
    /// (glibc 2.34).
    static let addCloseFrom: FileActionWithDescriptor? = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function? {
        // RTLD_DEFAULT: search the program and every library it loaded.
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #else
        let everywhere: UnsafeMutableRawPointer? = nil
        #endif
        guard let address = dlsym(everywhere, name) else { return nil }
        return unsafeBitCast(address, to: Function.self)
    }
}

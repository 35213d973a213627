//! Native functions the host's JavaScript calls in an engine (deno_core ops), reached only
//! through the deno_core handle the host keeps from mods.
//!
//! One answers the host's question of the JavaScript stack on a hot path: is any of the
//! candidate's code on it? (Every promise constructed while a mod is the current owner asks.)
//! Another passes the mod's file system calls and commands to its machine ([`MachineLink`]); a
//! third looks time zones up.
//!
//! It walks the backend's own frame list (QuickJS's `JS_VisitStackFrames`, [`frames`]): every
//! bytecode frame, however deep, by the file its function was compiled from. When that walk is
//! not available it falls back to the engine's stack trace (`v8::StackTrace`), which formats
//! frames with the sandbox's `Error.prepareStackTrace` (js/platform.js); that one leaves out
//! modlearn's own modules and costs about four times as much.

use deno_core::{op2, v8};

mod frames;
mod machine;
mod time_zones;

pub use machine::{MachineLink, MachineSlot};

/// Frames the fallback looks at: all it gets. The host sets the engine's stack limit around the
/// call too (js/seal.js `withHostStackLimit`), so a mod's `Error.stackTraceLimit` does not decide it.
const FRAMES: usize = i32::MAX as usize;

/// The file names of modlearn's own host modules (js/), none of which is the candidate's.
const HOST_MODULE_PREFIX: &str = "modlearn-host:";

deno_core::extension!(modlearn_engine_ops, ops = [op_mod_frame_on_stack, time_zones::op_time_zone_at, machine::op_machine_call]);

/// The ops, as the extension every engine runtime is created with.
pub fn extension() -> deno_core::Extension {
    modlearn_engine_ops::init()
}

/// Whether the fast walk works with this build of the backend; false means every stack read
/// takes the slower formatted route (a test keeps it true: see modlearn-engine's js tests).
pub fn native_frame_walk(scope: &mut v8::PinScope) -> bool {
    frames::runtime_of(scope).is_some()
}

/// Where the host's functions a mod can hand the engine to call live: the tracking `Promise`
/// constructor (js/lifecycle.js) and the engine's promise hook (js/host.js: outermost, it means
/// the engine called an async function from no frame at all), the statics it wraps (js/promise-statics.js, a module of
/// nothing else), and the modules that implement the APIs mods import or are handed (the letta
/// handle, the globals platform.js installs (`console`, `Bun`) and `structuredClone`, Node's
/// built-ins and the vendored libraries they are built on, the web platform, the dialects'
/// packages; not the vendored Cordis runtime, whose own reactions run as jobs).
const TRACKING_FUNCTIONS: [(&str, &str); 2] =
    [("modlearn-host:///lifecycle.js", "Promise"), ("modlearn-host:///host.js", "enginePromiseInit")];
const API_MODULES: [&str; 18] = [
    "modlearn-host:///promise-statics.js",
    "modlearn-host:///letta.js",
    "modlearn-host:///platform.js",
    "modlearn-host:///clone.js",
    "modlearn-host:///node/",
    "modlearn-host:///vendor/buffer.js",
    "modlearn-host:///vendor/events.js",
    "modlearn-host:///vendor/hashes.js",
    "modlearn-host:///vendor/inspect.js",
    "modlearn-host:///vendor/path.js",
    "modlearn-host:///vendor/querystring.js",
    "modlearn-host:///vendor/readable-stream.js",
    "modlearn-host:///vendor/streams.js",
    "modlearn-host:///vendor/string_decoder.js",
    "modlearn-host:///vendor/url.js",
    "modlearn-host:///web/",
    "modlearn-host:///pi/packages/",
    "modlearn-host:///dsh/packages/",
];

/// Whether a frame of the candidate's code (its module, or code it evaluated) is on the stack,
/// or the stack begins at one of the host's functions a mod can hand the engine to call. The
/// host's own code reaches those through frames of its dispatch, so with no host frame beneath
/// one, the engine called it directly: as a reaction (`.then(events.once.bind(null, bus, "x"))`,
/// `.then(Reflect.construct.bind(null, Promise, [...]))`) or another callback the mod handed
/// in, which makes what it does the mod's, as it is when the mod calls it itself. A stack with
/// no frame at all counts as the mod's too: the host's own hook is on it whenever it asks, so
/// none means it was not walked.
#[op2(fast)]
fn op_mod_frame_on_stack(scope: &mut v8::PinScope) -> bool {
    if let Some(runtime) = frames::runtime_of(scope) {
        let walk = frames::visit(runtime, is_candidate_file, is_mod_entry);
        return walk.frames == 0 || walk.found || walk.outermost;
    }
    formatted_frame_on_stack(scope)
}

fn is_mod_entry(file: &[u8], function: &[u8]) -> bool {
    API_MODULES.iter().any(|module| file.starts_with(module.as_bytes()))
        || TRACKING_FUNCTIONS.iter().any(|(module, name)| file == module.as_bytes() && function == name.as_bytes())
}

/// The fallback: the stack as the sandbox's formatter writes it for the host (host modules
/// already left out), where a stack too deep to format comes back with no frames.
fn formatted_frame_on_stack(scope: &mut v8::PinScope) -> bool {
    let Some(trace) = v8::StackTrace::current_stack_trace(scope, FRAMES) else {
        return true;
    };
    let frames = trace.get_frame_count();
    frames == 0
        || (0..frames).any(|index| {
            trace
                .get_frame(scope, index)
                .and_then(|frame| frame.get_script_name(scope))
                .is_some_and(|name| is_mod_script(&name.to_rust_string_lossy(scope)))
        })
}

/// A file name a bytecode frame carries that is the candidate's: anything but modlearn's own
/// host modules and the backend's internal scripts.
fn is_candidate_file(name: &[u8]) -> bool {
    !name.starts_with(HOST_MODULE_PREFIX.as_bytes()) && std::str::from_utf8(name).map_or(true, is_mod_script)
}

/// A script name of the candidate's: anything but the backend's internal scripts (`<dynimport-chain>`,
/// lower-case words in angle brackets, a name no module of a mod's can have), save the names
/// evaluated code gets.
fn is_mod_script(name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let internal = name
        .strip_prefix('<')
        .and_then(|rest| rest.strip_suffix('>'))
        .is_some_and(|word| !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
    !internal || matches!(name, "<eval>" | "<anonymous>" | "<input>")
}

#[cfg(test)]
mod tests {
    use super::{is_candidate_file, is_mod_entry, is_mod_script};

    #[test]
    fn backend_scripts_are_not_the_candidates() {
        assert!(is_mod_script("mod.ts"));
        assert!(is_mod_script("<eval>"));
        assert!(!is_mod_script("<dynimport-chain>"));
        assert!(!is_mod_script("<modlearn-stack-read>"));
        assert!(!is_mod_script(""));
    }

    #[test]
    fn host_modules_are_not_the_candidates() {
        assert!(!is_candidate_file(b"modlearn-host:platform.js"));
        assert!(is_candidate_file(b"modlearn-callback:///call.js"));
        assert!(is_candidate_file(b"file:///work/mod.ts?load=3"));
        assert!(is_candidate_file(b"<Eval Me>"));
        assert!(is_candidate_file(b"<input>"));
        assert!(!is_candidate_file(b"<dynimport-chain>"));
        assert!(!is_candidate_file(b""));
    }

    #[test]
    fn entries_are_the_tracking_constructor_and_the_api_modules() {
        assert!(is_mod_entry(b"modlearn-host:///lifecycle.js", b"Promise"));
        assert!(is_mod_entry(b"modlearn-host:///promise-statics.js", b""));
        assert!(is_mod_entry(b"modlearn-host:///node/util.js", b"promisified"));
        assert!(is_mod_entry(b"modlearn-host:///vendor/events.js", b"once"));
        assert!(!is_mod_entry(b"modlearn-host:///lifecycle.js", b"step"));
        assert!(!is_mod_entry(b"modlearn-host:///operations.js", b""));
        assert!(!is_mod_entry(b"file:///home/user/.letta/mods/mod.js", b"Promise"));
    }
}

#[cfg(test)]
mod backend {
    #[test]
    fn the_backend_offers_its_frame_walk() {
        let mut runtime = deno_core::JsRuntime::new(Default::default());
        deno_core::scope!(scope, &mut runtime);
        assert!(super::native_frame_walk(scope), "the fast stack walk is unavailable: every stack read takes the formatted route");
    }
}

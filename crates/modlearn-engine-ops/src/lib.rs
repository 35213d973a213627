//! Native functions the host's JavaScript calls in an engine (deno_core ops), reached only
//! through the deno_core handle the host keeps from mods.
//!
//! The one so far answers the host's question of the JavaScript stack on a hot path: is any of
//! the candidate's code on it? (Every promise constructed while a mod is the current owner asks.)
//!
//! Reading `new Error().stack` answers it too, but that goes through deno_core's
//! source-mapping stack formatter, a few million instructions a stack. The engine's own
//! stack walk (`v8::StackTrace`) formats frames with `Error.prepareStackTrace` alone, and the
//! sandbox's (js/platform.js) leaves out every frame of modlearn's own modules: what is left is
//! the candidate's code, and the backend's internal scripts, which are named `<...>`.

use deno_core::{op2, v8};

/// Frames looked at: all of them. The host sets the engine's stack limit around the call too
/// (js/seal.js `withHostStackLimit`), so a mod's `Error.stackTraceLimit` does not decide it.
const FRAMES: usize = i32::MAX as usize;

deno_core::extension!(modlearn_engine_ops, ops = [op_mod_frame_on_stack]);

/// The ops, as the extension every engine runtime is created with.
pub fn extension() -> deno_core::Extension {
    modlearn_engine_ops::init()
}

/// Whether a frame of the candidate's code (its module, or code it evaluated) is on the stack.
/// A stack that cannot be read counts as one with such a frame: the host's formatting
/// (js/platform.js `readStackForHost`) always ends in a frame of its own, so no frame at all
/// means the engine could not walk the stack (it is nearly full, or the walk ran inside
/// another stack's formatting, where mod code can run).
#[op2(fast)]
fn op_mod_frame_on_stack(scope: &mut v8::PinScope) -> bool {
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

/// A script name of the candidate's: anything but the backend's internal scripts (`<...>`),
/// which run no mod code of their own, save the names evaluated code gets.
fn is_mod_script(name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let internal = name.starts_with('<') && name.ends_with('>');
    !internal || matches!(name, "<eval>" | "<anonymous>" | "<input>")
}

#[cfg(test)]
mod tests {
    use super::is_mod_script;

    #[test]
    fn backend_scripts_are_not_the_candidates() {
        assert!(is_mod_script("mod.ts"));
        assert!(is_mod_script("<eval>"));
        assert!(!is_mod_script("<dynimport-chain>"));
        assert!(!is_mod_script("<modlearn-stack-read>"));
        assert!(!is_mod_script(""));
    }
}

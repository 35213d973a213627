//! A walk over the backend's frame list: QuickJS's own, read through the two functions of its C
//! API that need no context of ours (`JS_GetRuntime`, `JS_VisitStackFrames`), both linked into
//! every binary with the engine. The context comes from the current `v8::Context`, which this
//! backend (v8x on QuickJS) represents as a tagged value holding the `JSContext` pointer; any
//! other representation makes `runtime_of` answer `None` and the caller take the slow route.

use std::ffi::{CStr, c_char, c_int, c_void};

use deno_core::v8;

/// The tag v8x gives a value that is a context (`JS_TAG_V8_CONTEXT` in v8x's quickjs core).
const CONTEXT_TAG: i64 = 0x7632;

/// QuickJS's `JSValue` without NaN boxing (64-bit builds): a payload and a tag.
#[repr(C)]
struct TaggedValue {
    pointer: *mut c_void,
    tag: i64,
}

type FrameVisitor = unsafe extern "C" fn(*mut c_void, *const c_char, *const c_char, c_int, c_int);

unsafe extern "C" {
    fn JS_GetRuntime(context: *mut c_void) -> *mut c_void;
    fn JS_VisitStackFrames(runtime: *mut c_void, visitor: Option<FrameVisitor>, opaque: *mut c_void);
}

/// The QuickJS runtime behind the current context, when this backend is the one expected.
pub(crate) fn runtime_of(scope: &mut v8::PinScope) -> Option<Runtime> {
    let context = scope.get_current_context();
    let value = &*context as *const v8::Context as *const TaggedValue;
    // SAFETY: a Local<Context> of v8x points at an interned value slot of two words.
    let TaggedValue { pointer, tag } = unsafe { std::ptr::read(value) };
    if tag != CONTEXT_TAG || pointer.is_null() {
        return None;
    }
    // SAFETY: the pointer is the live JSContext this scope runs in.
    let runtime = unsafe { JS_GetRuntime(pointer) };
    (!runtime.is_null()).then_some(Runtime(runtime))
}

/// A QuickJS runtime, valid for the op that found it.
pub(crate) struct Runtime(*mut c_void);

/// What a walk saw: how many bytecode frames, whether one was from a file `wanted` accepts,
/// and whether the outermost one is a function `outermost` accepts.
pub(crate) struct Walk {
    pub frames: usize,
    pub found: bool,
    pub outermost: bool,
}

struct Visit<'a> {
    wanted: &'a dyn Fn(&[u8]) -> bool,
    outermost: &'a dyn Fn(&[u8], &[u8]) -> bool,
    walk: Walk,
}

/// Every bytecode frame of the runtime's stack, innermost first, by its function's file name
/// (and the outermost by its file and function name too).
pub(crate) fn visit(runtime: Runtime, wanted: impl Fn(&[u8]) -> bool, outermost: impl Fn(&[u8], &[u8]) -> bool) -> Walk {
    let mut visit = Visit { wanted: &wanted, outermost: &outermost, walk: Walk { frames: 0, found: false, outermost: false } };
    // SAFETY: the visitor only reads the strings it is handed, during the call.
    unsafe { JS_VisitStackFrames(runtime.0, Some(visit_frame), (&mut visit as *mut Visit).cast()) };
    visit.walk
}

unsafe extern "C" fn visit_frame(opaque: *mut c_void, function: *const c_char, file: *const c_char, _line: c_int, _column: c_int) {
    // SAFETY: `opaque` is the Visit `visit` passed in, alive for the walk.
    let visit = unsafe { &mut *opaque.cast::<Visit>() };
    visit.walk.frames += 1;
    // SAFETY: QuickJS hands NUL-terminated names ("" when there is none).
    let text = |name: *const c_char| if name.is_null() { &b""[..] } else { unsafe { CStr::from_ptr(name) }.to_bytes() };
    let (file, function) = (text(file), text(function));
    // Any frame may be the outermost: the last one visited is.
    visit.walk.outermost = (visit.outermost)(file, function);
    if !visit.walk.found {
        visit.walk.found = (visit.wanted)(file);
    }
}

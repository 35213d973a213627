//! Runs the host modules' own tests (`js/tests/*.test.js`) inside a real
//! engine, so they exercise QuickJS and not some other JavaScript engine.

use std::path::Path;
use std::rc::Rc;

use deno_core::{JsRuntime, ModuleSpecifier, PollEventLoopOptions, RuntimeOptions, v8};
use serde::Deserialize;

use crate::loader::SandboxLoader;

/// The outcome of one JS test.
#[derive(Debug, Deserialize)]
pub struct JsTestResult {
    /// Test name.
    pub name: String,
    /// Whether it passed.
    pub ok: bool,
    /// Failure message and stack.
    pub error: Option<String>,
}

/// Runs every test registered by `js/tests/<file>`; `js_dir` is the `js/` folder.
pub fn run_js_test_file(js_dir: &Path, file: &str) -> Result<Vec<JsTestResult>, String> {
    let loader = Rc::new(SandboxLoader::with_host_dir(js_dir.to_path_buf()));
    let mut runtime = JsRuntime::try_new(RuntimeOptions {
        module_loader: Some(loader),
        extensions: vec![modlearn_engine_ops::extension()],
        ..Default::default()
    })
    .map_err(|error| error.to_string())?;
    let tokio = tokio::runtime::Builder::new_current_thread().build().map_err(|e| e.to_string())?;
    tokio.block_on(async {
        let specifier = ModuleSpecifier::parse(&format!("modlearn-host:///tests/{file}")).map_err(|e| e.to_string())?;
        let id = runtime.load_side_es_module(&specifier).await.map_err(|e| e.to_string())?;
        let evaluated = runtime.mod_evaluate(id);
        runtime.run_event_loop(PollEventLoopOptions::default()).await.map_err(|e| e.to_string())?;
        evaluated.await.map_err(|e| e.to_string())?;
        let promise =
            runtime.execute_script("modlearn-host:///run-tests.js", "globalThis.__modlearnTests.run()").map_err(|e| e.to_string())?;
        let resolve = runtime.resolve(promise);
        let value = runtime.with_event_loop_promise(resolve, PollEventLoopOptions::default()).await.map_err(|e| e.to_string())?;
        deno_core::scope!(scope, runtime);
        let text = v8::Local::new(scope, value).to_rust_string_lossy(scope);
        serde_json::from_str(&text).map_err(|e| format!("{e}: {text}"))
    })
}

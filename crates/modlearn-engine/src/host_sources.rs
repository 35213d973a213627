//! The JavaScript half of the engine, embedded at compile time from `js/`.

/// Specifier scheme of host modules; candidates can never import these.
pub const HOST_SCHEME: &str = "modlearn-host";

/// The entry module, which sets up the sandbox and the host function.
pub const HOST_ENTRY: &str = "modlearn-host:///host.js";

macro_rules! host_sources {
    ($($file:literal),* $(,)?) => {
        /// `(file name, source)` of every host module.
        pub const HOST_MODULES: &[(&str, &str)] = &[
            $(($file, include_str!(concat!("../js/", $file))),)*
        ];
    };
}

host_sources!(
    "abort.js",
    "capabilities.js",
    "clone.js",
    "command-runtime.js",
    "context.js",
    "diagnostics.js",
    "dispatch.js",
    "host.js",
    "invocations.js",
    "json.js",
    "letta.js",
    "lifecycle.js",
    "live-compare.js",
    "operations.js",
    "permission-compose.js",
    "platform.js",
    "providers.js",
    "registry.js",
    "source-scan.js",
    "tool-result.js",
    "turn-start.js",
);

/// The source of the host module `name`, if there is one.
pub fn host_module(name: &str) -> Option<&'static str> {
    HOST_MODULES.iter().find(|(file, _)| *file == name).map(|(_, source)| *source)
}

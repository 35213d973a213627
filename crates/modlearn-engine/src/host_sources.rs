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
    "content.js",
    "context.js",
    "diagnostics.js",
    "dialect-runtimes.js",
    "dispatch.js",
    "host.js",
    "protocol.js",
    "invocations.js",
    "json.js",
    "letta.js",
    "lifecycle.js",
    "live-compare.js",
    "operations.js",
    "permission-compose.js",
    "dsh/api.js",
    "dsh/builtins.js",
    "dsh/events.js",
    "dsh/packages/cordis.js",
    "dsh/packages/llm.js",
    "dsh/packages/schemastery.js",
    "dsh/packages/tools.js",
    "dsh/registry.js",
    "dsh/runtime.js",
    "dsh/session.js",
    "pi/events.js",
    "pi/handle.js",
    "pi/session.js",
    "pi/packages/ai.js",
    "pi/packages/coding-agent.js",
    "pi/packages/typebox.js",
    "platform.js",
    "promise-statics.js",
    "providers.js",
    "registry.js",
    "require.js",
    "require-table.js",
    "seal.js",
    "source-scan.js",
    "tool-result.js",
    "turn-start.js",
    "node/assert-strict.js",
    "node/assert.js",
    "node/buffer.js",
    "node/bun-file.js",
    "node/child_process.js",
    "node/crypto.js",
    "node/deep-equal.js",
    "node/events.js",
    "node/fs-promises.js",
    "node/fs.js",
    "node/http.js",
    "node/https.js",
    "node/module.js",
    "node/net.js",
    "node/network.js",
    "node/os.js",
    "node/path-posix.js",
    "node/path.js",
    "node/perf_hooks.js",
    "node/process.js",
    "node/querystring.js",
    "node/string_decoder.js",
    "node/timers-promises.js",
    "node/timers.js",
    "node/tty.js",
    "node/url.js",
    "node/util-types.js",
    "node/util.js",
    "vendor/buffer.js",
    "vendor/dsh.js",
    "vendor/events.js",
    "vendor/hashes.js",
    "vendor/inspect.js",
    "vendor/path.js",
    "vendor/querystring.js",
    "vendor/streams.js",
    "vendor/string_decoder.js",
    "vendor/typebox.js",
    "vendor/url.js",
    "web/blob.js",
    "web/buffer.js",
    "web/crypto.js",
    "web/encoding.js",
    "web/event-target.js",
    "web/install.js",
    "web/intl.js",
    "web/intl-phrases.js",
    "web/network.js",
    "web/streams.js",
    "web/url.js",
    "world.js",
);

/// The source of the host module `name`, if there is one.
pub fn host_module(name: &str) -> Option<&'static str> {
    HOST_MODULES.iter().find(|(file, _)| *file == name).map(|(_, source)| *source)
}

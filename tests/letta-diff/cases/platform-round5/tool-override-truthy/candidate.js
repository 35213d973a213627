export function activate(letta) {
  const tool = { name: "uv_run", description: "Run with uv", run: async () => "ok" };
  letta.tools.register(tool);
  letta.tools.register({ ...tool, override: 1 });
}

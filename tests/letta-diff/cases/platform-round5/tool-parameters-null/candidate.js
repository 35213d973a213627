export function activate(letta) {
  letta.tools.register({ name: "uv_sync", description: "Run uv sync", parameters: null, run: async () => "synced" });
}

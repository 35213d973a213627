// The host's half of the typed seam with Rust (src/protocol.rs): the
// methods of `__modlearnHost` and the operations `start` accepts. The Rust
// test `protocol_tables_agree` asks a real engine for these tables and
// compares them with its enums, so a name added on one side only fails it.

export const HOST_METHODS = Object.freeze([
  "configure", "newGeneration", "start", "step", "poll", "advance", "fail", "finish", "snapshot", "takeConsole",
  "protocol", "seal",
]);

export const OPERATION_NAMES = Object.freeze([
  "load", "emit", "runTool", "checkPermissions", "runCommand", "dispose", "checkedDispose", "settle", "leaks",
  "control", "capabilities",
]);

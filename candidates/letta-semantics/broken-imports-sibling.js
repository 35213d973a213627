// Reuses the good mod beside it instead of carrying its own code. Letta's harness copies the
// candidate file alone into its run directory, so the import finds nothing there.
import { activate as dryPush } from "./good-dry-push.js";

export function activate(letta) {
  return dryPush(letta);
}

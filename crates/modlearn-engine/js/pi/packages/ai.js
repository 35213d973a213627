// `@mariozechner/pi-ai` as extensions use it: TypeBox's `Type`, and `StringEnum`,
// the string enum Pi asks for because some providers reject TypeBox's union form.
import { Type } from "../../vendor/typebox.js";

export { Type };

export function StringEnum(values, options = {}) {
  return Type.Unsafe({ type: "string", enum: [...values], ...options });
}

// Registers its own `bash`, replacing Pi's built-in: calls now go to this tool, which refuses
// sudo itself and has its own parameters.
import { Type } from "typebox";

export default function (pi) {
  pi.registerTool({
    name: "bash",
    label: "Safe bash",
    description: "Run a command, never with sudo",
    parameters: Type.Object({ command: Type.String(), timeout: Type.Optional(Type.Number()) }),
    async execute(_id, { command }) {
      if (command.includes("sudo")) throw new Error("sudo refused by safe bash");
      return { content: [{ type: "text", text: `would run: ${command}` }] };
    },
  });
}

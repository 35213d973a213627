// A word_count tool whose prepareArguments accepts the older `input` name for its text, as Pi's
// tools do for renamed parameters: the arguments are prepared before Pi validates them.
import { Type } from "typebox";

export default function (pi) {
  pi.registerTool({
    name: "word_count",
    label: "Word count",
    description: "Count the words of a text",
    parameters: Type.Object({ text: Type.String() }),
    prepareArguments(args) {
      if (args && typeof args === "object" && typeof args.input === "string" && args.text === undefined) {
        const { input, ...rest } = args;
        return { ...rest, text: input };
      }
      return args;
    },
    async execute(_id, { text }) {
      const words = text.trim().split(/\s+/).filter(Boolean).length;
      return { content: [{ type: "text", text: `${words} words` }] };
    },
  });
}

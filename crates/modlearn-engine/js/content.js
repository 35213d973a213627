// The text of message or tool content as Pi and DSH write it: a string, or
// content blocks whose text blocks are joined by newlines (images dropped).

export function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((block) => block && block.type === "text" && typeof block.text === "string")
    .map((block) => block.text)
    .join("\n");
}

/** A message's text: a bare string, or its `content`. */
export function messageText(message) {
  return typeof message === "string" ? message : contentText(message && message.content);
}

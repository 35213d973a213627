//! The mod's source from a model's answer.

/// Fence languages taken as the mod's source (`""` is an untagged fence).
const CODE_LANGUAGES: &[&str] = &["", "ts", "typescript", "mts", "tsx", "js", "javascript", "mjs", "jsx"];

/// A fenced block of a Markdown answer.
struct Block {
    language: String,
    code: String,
}

/// Extracts the mod source from a model answer.
///
/// Fenced blocks win (JS or TS, or untagged); among several, the longest
/// that contains `activate` or `export default`, else the longest. An
/// unterminated fence (an answer cut off by the token limit) runs to the
/// end. With no fence, the whole text if it looks like a module (a line
/// starting with `export`). The result ends with one newline.
pub fn extract_code(text: &str) -> Result<String, String> {
    let text = text.trim_start_matches('\u{feff}');
    let blocks = fenced_blocks(text);
    if blocks.is_empty() {
        return if looks_like_module(text) { Ok(finish(text)) } else { Err("the answer has no code block and no export".to_owned()) };
    }
    let code: Vec<&Block> = blocks.iter().filter(|block| CODE_LANGUAGES.contains(&block.language.as_str())).collect();
    // A block tagged oddly (```letta) that is plainly a module still counts.
    let code = if code.is_empty() { blocks.iter().filter(|block| looks_like_module(&block.code)).collect() } else { code };
    if code.is_empty() {
        let languages: Vec<String> = blocks.iter().map(|block| format!("`{}`", block.language)).collect();
        return Err(format!("the answer's code blocks ({}) are not JavaScript or TypeScript and export nothing", languages.join(", ")));
    }
    let is_entry = |block: &&Block| block.code.contains("activate") || block.code.contains("export default");
    let best = code
        .iter()
        .filter(|block| is_entry(block))
        .max_by_key(|block| block.code.len())
        .or_else(|| code.iter().max_by_key(|block| block.code.len()))
        .expect("code is not empty");
    Ok(finish(&best.code))
}

fn finish(code: &str) -> String {
    let code = code.trim_start_matches('\u{feff}');
    let start = code.find(|c: char| !c.is_whitespace()).map_or(code.len(), |first| code[..first].rfind('\n').map_or(0, |line| line + 1));
    format!("{}\n", code[start..].trim_end())
}

fn looks_like_module(text: &str) -> bool {
    text.lines().map(str::trim_start).any(|line| line.starts_with("export ") || line.starts_with("export{"))
}

/// The run of ``` or ~~~ (three or more) that opens a line, if any.
fn fence(line: &str) -> Option<(char, usize)> {
    let mark = line.chars().next().filter(|&c| c == '`' || c == '~')?;
    let count = line.chars().take_while(|&c| c == mark).count();
    (count >= 3).then_some((mark, count))
}

fn fenced_blocks(text: &str) -> Vec<Block> {
    struct Open<'a> {
        mark: char,
        count: usize,
        indent: usize,
        language: String,
        lines: Vec<&'a str>,
    }
    let mut blocks = Vec::new();
    let mut open: Option<Open> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match open.as_mut() {
            None => {
                let Some((mark, count)) = fence(trimmed) else { continue };
                let info = trimmed[count..].trim();
                if mark == '`' && info.contains('`') {
                    continue; // ```inline``` code in prose, not a fence
                }
                let language = info.split_whitespace().next().unwrap_or("").to_ascii_lowercase();
                open = Some(Open { mark, count, indent, language, lines: Vec::new() });
            }
            Some(block) => {
                let closes = fence(trimmed)
                    .is_some_and(|(mark, count)| mark == block.mark && count >= block.count && trimmed[count..].trim().is_empty());
                if closes {
                    let block = open.take().expect("open block");
                    blocks.push(Block { language: block.language, code: block.lines.join("\n") });
                } else {
                    // A fence indented in a list item indents its code as well.
                    let strip = line.len() - line.trim_start_matches(' ').len();
                    block.lines.push(&line[strip.min(block.indent)..]);
                }
            }
        }
    }
    if let Some(block) = open {
        blocks.push(Block { language: block.language, code: block.lines.join("\n") });
    }
    blocks.retain(|block| !block.code.trim().is_empty());
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_the_block_out_of_prose() {
        let answer = "Here is the mod:\n\n```ts\nexport function activate(letta) {\n  return 1;\n}\n```\n\nIt counts turns.";
        assert_eq!(extract_code(answer).unwrap(), "export function activate(letta) {\n  return 1;\n}\n");
    }

    #[test]
    fn prefers_the_block_with_the_entry_point() {
        let answer = "Helper:\n```js\nfunction helperThatIsLongerThanTheModItself() { return 'a long helper body'; }\n```\n\
                      Mod:\n```javascript\nexport default { activate };\n```\nUsage:\n```bash\nmodlearn run\n```";
        assert_eq!(extract_code(answer).unwrap(), "export default { activate };\n");
    }

    #[test]
    fn otherwise_takes_the_longest_code_block() {
        let answer = "```js\nconst a = 1;\n```\n```\nconst longer = 2;\n```\n```json\n{\"a very long json block\": true, \"more\": 1}\n```";
        assert_eq!(extract_code(answer).unwrap(), "const longer = 2;\n");
    }

    #[test]
    fn an_unterminated_fence_runs_to_the_end() {
        let answer = "Sure!\n```typescript\nexport function activate(letta) {\n  letta.on('turn_start', () => {";
        assert_eq!(extract_code(answer).unwrap(), "export function activate(letta) {\n  letta.on('turn_start', () => {\n");
    }

    #[test]
    fn tsx_and_info_strings_count_as_code() {
        let answer = "```TSX title=mod.tsx\nexport function activate() { return <div/>; }\n```";
        assert_eq!(extract_code(answer).unwrap(), "export function activate() { return <div/>; }\n");
    }

    #[test]
    fn longer_fences_and_tildes_hold_inner_fences() {
        let answer = "````js\nconst doc = `\n```js\nx\n```\n`;\nexport function activate() {}\n````";
        assert_eq!(extract_code(answer).unwrap(), "const doc = `\n```js\nx\n```\n`;\nexport function activate() {}\n");
        assert_eq!(extract_code("~~~mjs\nexport const a = 1;\n~~~").unwrap(), "export const a = 1;\n");
    }

    #[test]
    fn an_indented_fence_in_a_list_is_unindented() {
        let answer = "1. Save this:\n   ```js\n   export function activate() {\n     go();\n   }\n   ```";
        assert_eq!(extract_code(answer).unwrap(), "export function activate() {\n  go();\n}\n");
    }

    #[test]
    fn without_fences_a_module_is_taken_whole() {
        let answer = "\u{feff}// mod\nexport function activate(letta) {}\n\n";
        assert_eq!(extract_code(answer).unwrap(), "// mod\nexport function activate(letta) {}\n");
    }

    #[test]
    fn a_bom_inside_the_block_is_dropped() {
        assert_eq!(extract_code("```js\n\u{feff}export const a = 1;\n```").unwrap(), "export const a = 1;\n");
    }

    #[test]
    fn prose_only_is_an_error() {
        let error = extract_code("I'm sorry, I can't export that for you. Use ```activate``` inline.").unwrap_err();
        assert_eq!(error, "the answer has no code block and no export");
        assert_eq!(extract_code("").unwrap_err(), "the answer has no code block and no export");
    }

    #[test]
    fn only_foreign_blocks_is_an_error_naming_them() {
        let error = extract_code("```json\n{}\n```\n```bash\nls\n```").unwrap_err();
        assert_eq!(error, "the answer's code blocks (`json`, `bash`) are not JavaScript or TypeScript and export nothing");
        assert_eq!(extract_code("```letta\nexport function activate() {}\n```").unwrap(), "export function activate() {}\n");
    }
}

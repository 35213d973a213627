//! The "World" section of `report.md`: per scenario, what the mod did to its machine
//! (files written, read and removed, commands run, environment read, network refused). Every
//! path, command and URL is the mod's text: quoted.

use std::fmt::Write;

use modlearn_types::untrusted::md_code;
use modlearn_types::{ScenarioVerdict, WorldSummary};

/// Appends the section, when some scenario's mod touched its world.
pub(crate) fn render_world(out: &mut String, scenarios: &[ScenarioVerdict], heading: &str) {
    let touched: Vec<(&str, &WorldSummary)> =
        scenarios.iter().filter_map(|s| s.world.as_ref().map(|world| (s.name.as_str(), world))).collect();
    if touched.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n{heading}# World\n");
    for (scenario, world) in touched {
        let _ = writeln!(out, "- `{scenario}`:");
        let mut line = |what: &str, items: Vec<String>| {
            if !items.is_empty() {
                let _ = writeln!(out, "  - {what}: {}", items.join(", "));
            }
        };
        line("files written", world.files_written.iter().map(|f| format!("{} ({} bytes)", md_code(&f.path), f.bytes)).collect());
        line("files read", world.files_read.iter().map(|path| md_code(path)).collect());
        line("files removed", world.files_deleted.iter().map(|path| md_code(path)).collect());
        line(
            "commands run",
            world
                .commands
                .iter()
                .map(|c| {
                    let ended = c.exit_code.map_or_else(|| "no exit code".to_owned(), |code| format!("exit {code}"));
                    format!("{} ({}, {ended})", md_code(&c.command), md_code(&c.via))
                })
                .collect(),
        );
        line(
            "env vars read",
            world.env_read.iter().map(|read| format!("{}{}", md_code(&read.name), if read.found { "" } else { " (unset)" })).collect(),
        );
        line("network attempts refused", world.network.iter().map(|n| format!("{} ({})", md_code(&n.target), md_code(&n.via))).collect());
        if world.cut > 0 {
            let _ = writeln!(out, "  - {} more not listed", world.cut);
        }
        if world.dropped > 0 {
            let _ = writeln!(out, "  - {} effects past the engine's log cap, not seen", world.dropped);
        }
    }
}

use modlearn_types::{Attempt, ConsoleLine, RunReport};
use serde::Serialize;
use serde_json::{Value, json};

use crate::{
    RunLayout, WriteError, history_json, render_candidate_report, render_history, render_proposer_guide, render_run_report, write_atomic,
};

/// What one candidate leaves in the run directory.
#[derive(Clone, Debug)]
pub struct CandidateArtifacts<'a> {
    /// Its report entry.
    pub attempt: &'a Attempt,
    /// The file name to store its source under (`mods/<file_name>`).
    pub file_name: &'a str,
    /// Its source, when it could be read.
    pub source: Option<&'a str>,
    /// Console output per scenario.
    pub consoles: Vec<&'a [ConsoleLine]>,
    /// Further files (relative name, contents), e.g. the generation prompt.
    pub extra: Vec<(&'a str, String)>,
    /// Per scenario, the scripted session it ran, if any.
    pub sessions: Vec<Option<SessionFiles<'a>>>,
}

/// What a scripted session leaves in its scenario's directory: `trace.jsonl`, `result.txt` and,
/// under `memory/`, the scenario directory as the session left it.
#[derive(Clone, Copy, Debug)]
pub struct SessionFiles<'a> {
    /// The trace entries, one JSON object each.
    pub trace: &'a [Value],
    /// The result text.
    pub result: &'a str,
    /// The scenario directory's files (relative path, contents).
    pub files: &'a [(String, String)],
}

/// Writes a run directory. Candidate artifacts can be written as each
/// candidate finishes; the run-level files at the end.
#[derive(Clone, Debug)]
pub struct RunWriter {
    layout: RunLayout,
    spec_raw: Value,
    spec_name: String,
}

fn pretty(value: &impl Serialize) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("report data serializes");
    text.push('\n');
    text
}

impl RunWriter {
    /// A writer for `layout`; `spec_raw` is the spec file as parsed (for `env.snapshot.json`).
    pub fn new(layout: RunLayout, spec_raw: Value, spec_name: String) -> RunWriter {
        RunWriter { layout, spec_raw, spec_name }
    }

    /// The layout in use.
    pub fn layout(&self) -> &RunLayout {
        &self.layout
    }

    /// Writes one candidate's files: its source, per-scenario results, report and manifest.
    pub fn write_candidate(&self, artifacts: &CandidateArtifacts<'_>) -> Result<(), WriteError> {
        let attempt = artifacts.attempt;
        let index = attempt.candidate_index - 1;
        let dir = self.layout.candidate_dir(index);
        let relative = self.layout.candidate_relative(index);
        let join = |name: &str| if relative.is_empty() { name.to_owned() } else { format!("{relative}/{name}") };
        let candidate_file = format!("mods/{}", artifacts.file_name);
        if let Some(source) = artifacts.source {
            write_atomic(&dir.join(&candidate_file), source)?;
        }
        let mut scenario_artifacts = Vec::new();
        for (position, scenario) in attempt.scenarios.iter().enumerate() {
            let scenario_dir = format!("eval/{}", scenario.dir_name);
            let mut result = json!({
                "scenario": scenario.name,
                "hidden": scenario.hidden,
                "passed": scenario.passed,
                "score": scenario.score,
                "maxScore": scenario.max_score,
                "checks": scenario.checks,
                "resultText": scenario.result_text(),
            });
            if let Some(world) = &scenario.world {
                result["world"] = json!(world);
            }
            let result_path = format!("{scenario_dir}/assertions.result.json");
            write_atomic(&dir.join(&result_path), pretty(&result))?;
            scenario_artifacts.push(join(&result_path));
            if let Some(Some(session)) = artifacts.sessions.get(position) {
                let trace: String = session.trace.iter().map(|entry| format!("{entry}\n")).collect();
                let mut files = vec![(format!("{scenario_dir}/trace.jsonl"), trace)];
                files.push((format!("{scenario_dir}/result.txt"), session.result.to_owned()));
                for (path, contents) in session.files {
                    // Paths were confined to the scenario directory by the session.
                    files.push((format!("{scenario_dir}/memory/{path}"), contents.clone()));
                }
                for (name, contents) in files {
                    write_atomic(&dir.join(&name), contents)?;
                    scenario_artifacts.push(join(&name));
                }
            }
            if let Some(lines) = artifacts.consoles.get(position).filter(|lines| !lines.is_empty()) {
                let text: String = lines.iter().map(|line| format!("[{}] {}\n", line.level, line.text)).collect();
                let console_path = format!("{scenario_dir}/console.log");
                write_atomic(&dir.join(&console_path), text)?;
                scenario_artifacts.push(join(&console_path));
            }
        }
        for (name, contents) in &artifacts.extra {
            write_atomic(&dir.join(name), contents)?;
        }
        let nested = !relative.is_empty();
        if nested {
            write_atomic(&dir.join("env.snapshot.json"), pretty(&self.spec_raw))?;
            write_atomic(&dir.join("report.json"), pretty(attempt))?;
            write_atomic(&dir.join("report.md"), render_candidate_report(&self.spec_name, attempt))?;
        }
        let manifest = json!({
            "kind": "mod_learning_candidate_manifest",
            "version": 1,
            "candidateIndex": attempt.candidate_index,
            "round": attempt.round,
            "candidatePath": attempt.candidate_path,
            "passed": attempt.passed,
            "score": attempt.score,
            "maxScore": attempt.max_score,
            "evalExit": "assertions only",
            "generationExit": "skipped",
            "runDir": self.layout.root().display().to_string(),
            "artifacts": {
                "candidatePath": join(&candidate_file),
                "envSnapshotPath": join("env.snapshot.json"),
                "evalDir": join("eval"),
                "reportJsonPath": join("report.json"),
                "reportMarkdownPath": join("report.md"),
                "scenarioArtifacts": scenario_artifacts,
            },
        });
        write_atomic(&dir.join("manifest.json"), pretty(&manifest))
    }

    /// Writes the spec snapshot, history and proposer guide for the
    /// candidates so far (after every round of a run).
    pub fn write_progress(&self, report: &RunReport) -> Result<(), WriteError> {
        write_atomic(&self.layout.file("env.snapshot.json"), pretty(&self.spec_raw))?;
        write_atomic(&self.layout.file("history.json"), pretty(&history_json(report)))?;
        write_atomic(&self.layout.file("history.md"), render_history(report))?;
        write_atomic(&self.layout.file("proposer-guide.md"), render_proposer_guide(report))
    }

    /// Writes the run-level files: spec snapshot, reports (Markdown, HTML, JSON), history and proposer guide.
    pub fn write_run(&self, report: &RunReport) -> Result<(), WriteError> {
        self.write_progress(report)?;
        write_atomic(&self.layout.file("report.md"), render_run_report(report))?;
        write_atomic(&self.layout.file("report.html"), crate::render_run_html(report))?;
        // Last: a run directory with report.json is complete.
        write_atomic(&self.layout.file("report.json"), pretty(report))
    }
}

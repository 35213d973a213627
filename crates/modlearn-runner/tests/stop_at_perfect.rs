//! `LearnSettings::stop_at_perfect` against a real model server on
//! 127.0.0.1 and the real engine: candidate 1 answers at once with a
//! passing mod, candidate 2 once candidate 1 has been judged. Stopping at perfect cancels
//! candidate 2; not stopping draws it (what `modlearn compare` needs for a
//! fixed n), and either way no later round starts.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use modlearn_propose::ModelRef;
use modlearn_runner::{CandidatePlace, EvalSettings, Interrupt, LearnEvent, LearnOutcome, LearnSettings, ModelEndpoint, Stop, learn};
use modlearn_testserver::{Gate, Reply, TestServer};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Learns uv-pip (2 candidates a round, 2 rounds at most); the outcome and the requests the server got.
fn learn_with(stop_at_perfect: bool) -> (LearnOutcome, usize) {
    learn_interrupting(stop_at_perfect, false)
}

/// [`learn_with`]; with `interrupt`, the run is interrupted as soon as candidate 1 is judged.
fn learn_interrupting(stop_at_perfect: bool, interrupt: bool) -> (LearnOutcome, usize) {
    let server = TestServer::start_blocking();
    let source = std::fs::read_to_string(repo_root().join("candidates/uv-pip/good-return-args.ts")).unwrap();
    let judged = Gate::new();
    let held = judged.clone();
    server.respond_with("gpt-4.1-mini", move |request| {
        let reply = Reply::text(format!("```ts\n{source}```\n")).usage(100, 50);
        // Candidate 2 is still in flight when candidate 1 has been judged, however long judging takes.
        if request.body["seed"] == 1 { reply } else { reply.held_until(&held).after(Duration::from_millis(50)) }
    });
    let loaded = modlearn_spec::load_spec(&repo_root().join("specs/uv-pip.json")).unwrap();
    let mut scenarios = modlearn_spec::resolve_scenarios(&loaded.spec);
    modlearn_spec::attach_envs(&mut scenarios, &loaded).unwrap();
    let temp = tempfile::tempdir().unwrap();
    let (base, cache) = (server.base_url_openai(), temp.path().join("cache"));
    let model = ModelRef::parse("openai:gpt-4.1-mini").unwrap();
    let proposer =
        ModelEndpoint { base_url: Some(&base), prices: None, cache_dir: &cache, request_timeout: None }.completion(&model).unwrap();
    let eval = EvalSettings { jobs: 1, ..EvalSettings::default() };
    let handle = Interrupt::new();
    let settings = LearnSettings { candidates: 2, rounds: 2, stop_at_perfect, eval, interrupt: handle.clone(), ..LearnSettings::default() };
    let root = temp.path().to_path_buf();
    let place = move |number: usize| {
        let artifacts_dir = format!("candidates/{number:03}");
        let file = format!("{artifacts_dir}/mods/uv-pip.ts");
        CandidatePlace { absolute: root.join(&file), file, artifacts_dir }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let on_event = move |event: LearnEvent<'_>| {
        if matches!(event, LearnEvent::CandidateDone(_)) {
            if interrupt {
                handle.interrupt();
            }
            judged.open();
        }
    };
    let outcome = runtime.block_on(learn(&loaded.spec, Arc::new(scenarios), &model, proposer, &settings, &place, &on_event));
    // The response cache is one directory per endpoint, named after it.
    let scopes: Vec<String> =
        std::fs::read_dir(&cache).unwrap().map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(scopes, vec![modlearn_runner::cache_scope(&base)]);
    (outcome, server.request_count())
}

#[test]
fn a_perfect_candidate_cancels_its_round_when_stopping_at_perfect() {
    let (outcome, _) = learn_with(true);
    assert!(matches!(outcome.stop, Stop::PerfectScore), "{:?}", outcome.stop);
    assert_eq!(outcome.candidates.len(), 1, "candidate 2 was cancelled");
    assert_eq!(outcome.candidates[0].number, 1);
    assert!(outcome.candidates[0].attempt.passed);
    assert_eq!(outcome.learning.stopped, "perfect score");
}

#[test]
fn without_stopping_at_perfect_the_round_draws_every_candidate_and_ends_there() {
    let (outcome, requests) = learn_with(false);
    assert!(matches!(outcome.stop, Stop::PerfectScore), "{:?}", outcome.stop);
    let numbers: Vec<usize> = outcome.candidates.iter().map(|candidate| candidate.number).collect();
    assert_eq!(numbers, vec![1, 2], "the slower candidate is drawn and judged too");
    assert!(outcome.candidates.iter().all(|candidate| candidate.attempt.passed));
    assert_eq!((outcome.learning.rounds_run, outcome.learning.stopped.as_str()), (1, "perfect score"), "no second round");
    assert_eq!(requests, 2);
}

/// An interrupt drops what is in flight and ends the run as interrupted: the round is left
/// unfinished (no report is due), the candidates judged before it are kept.
#[test]
fn an_interrupt_drops_requests_in_flight_and_stops_the_run() {
    let (outcome, _) = learn_interrupting(false, true);
    assert!(matches!(outcome.stop, Stop::Interrupted), "{:?}", outcome.stop);
    assert!(outcome.stop.is_cut_short());
    let numbers: Vec<usize> = outcome.candidates.iter().map(|candidate| candidate.number).collect();
    assert_eq!(numbers, vec![1], "candidate 2 was in flight and dropped");
    assert_eq!(outcome.learning.stopped, "interrupted");
}

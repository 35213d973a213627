//! Where an engine's start-up time goes: a bare deno_core runtime against
//! a modlearn engine with its host modules. `cargo run --release --example startup`.
#![allow(clippy::print_stdout, reason = "example output")]

use std::time::Instant;

fn main() {
    let count = 30;
    let started = Instant::now();
    for _ in 0..count {
        drop(deno_core::JsRuntime::new(Default::default()));
    }
    println!("bare JsRuntime: {:.2} ms", started.elapsed().as_secs_f64() * 1000.0 / count as f64);
    let started = Instant::now();
    for _ in 0..count {
        drop(modlearn_engine::Engine::new(Default::default()).unwrap());
    }
    println!("modlearn Engine: {:.2} ms", started.elapsed().as_secs_f64() * 1000.0 / count as f64);
    snapshot_probe();
}

#[allow(dead_code)]
fn snapshot_probe() {
    let count = 30;
    let started = Instant::now();
    let runtime = deno_core::JsRuntimeForSnapshot::new(Default::default());
    let snapshot: &'static [u8] = Box::leak(runtime.snapshot());
    println!("snapshot: {} bytes in {:.1} ms", snapshot.len(), started.elapsed().as_secs_f64() * 1000.0);
    let started = Instant::now();
    for _ in 0..count {
        let mut runtime = deno_core::JsRuntime::new(deno_core::RuntimeOptions { startup_snapshot: Some(snapshot), ..Default::default() });
        let value = runtime.execute_script("probe", "typeof Deno.core.ops").unwrap();
        drop(value);
    }
    println!("JsRuntime from snapshot: {:.2} ms", started.elapsed().as_secs_f64() * 1000.0 / count as f64);
}

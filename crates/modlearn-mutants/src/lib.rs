//! Is a spec strong enough? Built-in wrong mods ("mutants") are evaluated against it with the
//! real evaluator; a mutant that passes every check that ran shows what the spec leaves unchecked
//! (prompt markers left unrun for want of an eval model kill nothing). A
//! coverage table says which requirement each check (assertion or marker) checks (from `covers`, or
//! inferred by word overlap).
//!
//! The mutants are real `.js` files under `mutants/`; what they take from the spec (the reminder
//! text, the rewrite examples) is injected as JSON data, never as code.
#![deny(missing_docs)]

mod catalog;
mod coverage;
mod data;
mod run;

pub use catalog::{DATA_PLACEHOLDER, Mutant};
pub use coverage::{CoveringCheck, EVERY_SCENARIO, RequirementCoverage, assertion_words, coverage, type_vocabulary, words};
pub use data::{GENERIC_REMINDER, MutantData, Reminder, Rewrite, RewriteExample, example_args};
pub use run::{KillingCheck, MutantOutcome, MutantReport, run_mutants};

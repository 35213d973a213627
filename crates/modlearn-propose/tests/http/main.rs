//! The HTTP providers against a real scripted server on 127.0.0.1.

mod anthropic;
mod cache;
mod openai;
mod redaction;
mod retry;
mod settings;
mod toolchat;

use std::time::Duration;

use modlearn_propose::{CompletionRequest, Message, ModelRef, PriceTable, Proposer, ProviderSettings, RetryPolicy, Role, http_proposer};

/// A key that must never show up in anything modlearn prints.
const KEY: &str = "sk-test-7f3a9c1e-DO-NOT-PRINT";

fn request(model: &str) -> CompletionRequest {
    CompletionRequest {
        model: ModelRef::parse(model).expect("model ref"),
        messages: vec![
            Message { role: Role::System, content: "You write mods.".into() },
            Message { role: Role::User, content: "Write a mod that counts turns.".into() },
        ],
        max_tokens: 512,
        temperature: 0.5,
        seed: 42,
    }
}

/// Fast retries and a short timeout, so the suite stays quick.
fn settings(base_url: String) -> ProviderSettings {
    ProviderSettings {
        base_url: Some(base_url),
        api_key: Some(KEY.to_owned()),
        timeout: Duration::from_millis(1500),
        retry: RetryPolicy { max_attempts: 3, base_delay: Duration::from_millis(10), max_delay: Duration::from_secs(2) },
        prices: PriceTable::builtin(),
    }
}

fn proposer(model: &str, settings: ProviderSettings) -> Box<dyn Proposer> {
    http_proposer(&ModelRef::parse(model).expect("model ref"), settings).expect("proposer")
}

const MOD: &str = "Here it is:\n```js\nexport function activate(letta) {}\n```\n";

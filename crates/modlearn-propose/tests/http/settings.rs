//! Settings from flags and the environment.

use std::collections::HashMap;

use modlearn_propose::{ModelRef, ProposeError, ProviderSettings, http_proposer};

fn from_vars(model: &str, flag: Option<&str>, vars: &[(&str, &str)]) -> Result<ProviderSettings, ProposeError> {
    let vars: HashMap<String, String> = vars.iter().map(|(name, value)| ((*name).to_owned(), (*value).to_owned())).collect();
    ProviderSettings::from_vars(&ModelRef::parse(model).unwrap(), flag, |name| vars.get(name).cloned())
}

fn message(result: Result<impl std::fmt::Debug, ProposeError>) -> String {
    match result {
        Err(ProposeError::Config(message)) => message,
        other => panic!("expected a configuration error, got {other:?}"),
    }
}

#[test]
fn a_missing_key_for_the_real_host_says_how_to_fix_it() {
    insta::assert_snapshot!(message(from_vars("openai:gpt-4.1", None, &[])), @"`openai:gpt-4.1` needs an API key: set `OPENAI_API_KEY`, or pass `--base-url` for an OpenAI-compatible server (vLLM, llama.cpp, Ollama) that needs none");
    insta::assert_snapshot!(message(from_vars("anthropic:claude-sonnet-4-5", None, &[("ANTHROPIC_API_KEY", " ")])), @"`anthropic:claude-sonnet-4-5` needs an API key: set `ANTHROPIC_API_KEY`, or pass `--base-url` for an Anthropic-compatible server that needs none");
    let explicit = from_vars("openai:gpt-4.1", Some("https://api.openai.com/v1"), &[]);
    assert!(message(explicit).contains("OPENAI_API_KEY"));
}

#[test]
fn keys_and_base_urls_come_from_flag_then_environment_then_default() {
    let settings = from_vars("openai:gpt-4.1", None, &[("OPENAI_API_KEY", "k")]).unwrap();
    assert_eq!((settings.base_url.as_deref(), settings.api_key.as_deref()), (Some("https://api.openai.com/v1"), Some("k")));
    let settings = from_vars("anthropic:claude-3-5-haiku", None, &[("ANTHROPIC_API_KEY", "a"), ("OPENAI_API_KEY", "o")]).unwrap();
    assert_eq!((settings.base_url.as_deref(), settings.api_key.as_deref()), (Some("https://api.anthropic.com"), Some("a")));
    let vars = [("OPENAI_BASE_URL", "http://localhost:8000/v1")];
    assert_eq!(from_vars("openai:m", None, &vars).unwrap().base_url.as_deref(), Some("http://localhost:8000/v1"));
    let flagged = from_vars("openai:m", Some("http://127.0.0.1:9/v1"), &vars).unwrap();
    assert_eq!((flagged.base_url.as_deref(), flagged.api_key), (Some("http://127.0.0.1:9/v1"), None));
    assert_eq!(flagged.timeout, std::time::Duration::from_secs(120));
}

#[test]
fn a_bad_base_url_is_a_configuration_error() {
    insta::assert_snapshot!(message(from_vars("openai:m", Some("localhost:8000"), &[])), @"`--base-url` `localhost:8000` is not an http(s) URL (e.g. `http://localhost:8000/v1`)");
    let from_env = message(from_vars("anthropic:m", None, &[("ANTHROPIC_BASE_URL", "ftp://x")]));
    assert!(from_env.starts_with("`ANTHROPIC_BASE_URL` `ftp://x`"), "{from_env}");
}

#[test]
fn local_models_are_not_http() {
    let model = ModelRef::parse("local:smollm2-135m").unwrap();
    assert_eq!(
        message(http_proposer(&model, ProviderSettings::default()).map(|_| ())),
        "`local:smollm2-135m` runs in-process, not over HTTP"
    );
    let openai = ModelRef::parse("openai:gpt-4.1").unwrap();
    assert!(message(http_proposer(&openai, ProviderSettings::default()).map(|_| ())).contains("OPENAI_API_KEY"));
}

//! Assertions a dialect's host has no equivalent for: refused at validation, so a spec never
//! judges a Pi extension on behaviour Pi cannot have (README, "One vocabulary, three hosts").

use modlearn_types::Dialect;

use crate::assertion::Assertion;

/// Why a spec of `dialect` (not Pi) cannot script dialogs.
pub(super) fn no_dialogs(dialect: Dialect) -> String {
    format!(
        "only Pi extensions open dialogs (`ctx.ui`); a `{}` candidate never asks the person at the keyboard: drop `ui`",
        dialect.as_str()
    )
}

/// Why `assertion` cannot be judged for `dialect`, or `None` when it maps.
pub(super) fn unmapped(dialect: Dialect, assertion: &Assertion) -> Option<String> {
    let why = match dialect {
        Dialect::Letta => letta(assertion)?,
        Dialect::Pi => pi(assertion)?,
        Dialect::Dsh => dsh(assertion)?,
    };
    Some(format!("`{}` does not map to the `{}` dialect: {why}", assertion.type_name(), dialect.as_str()))
}

fn letta(assertion: &Assertion) -> Option<&'static str> {
    Some(match assertion {
        Assertion::AsksApproval(_) => {
            "a Letta mod asks through a permission overlay: judge it with `permission_decides` and `decision: \"ask\"`"
        }
        Assertion::NoPendingPlugin(_) => "only DSH parks a plugin PENDING; a Letta mod loads or fails",
        Assertion::DeclaresWhatItUses(_) => "a Letta mod declares no services: its whole API is the `letta` handle",
        Assertion::PostExecuteDecides(_) => {
            "a Letta mod decides after a tool by returning a result from `tool_end`: judge it with `tool_end_rewrites_result`"
        }
        _ => return None,
    })
}

fn dsh(assertion: &Assertion) -> Option<&'static str> {
    Some(match assertion {
        Assertion::ToolStartRewritesArgs(_) => {
            "DSH logs a call's arguments frozen before any listener runs, so a plugin cannot rewrite them"
        }
        Assertion::PermissionDecides(_) => {
            "DSH has no permission overlays; judge a gate with `tool_start_blocks` (a `deny` decision or a guard) or `asks_approval`"
        }
        Assertion::RunsUnderProfile(_) => "capability profiles are Letta's surfaces; DSH composes services instead",
        Assertion::TurnStartCancels(cancels) if cancels.reason_contains.is_some() => {
            "DSH's `agent/pre-step` rejects with `{ kind: \"reject\" }`, which carries no reason: drop `reasonContains`"
        }
        Assertion::DisposesCleanly(disposes) if disposes.require_own_cleanup == Some(true) => {
            "Cordis disposes every effect of an unloading plugin itself: drop `requireOwnCleanup`"
        }
        _ => return None,
    })
}

fn pi(assertion: &Assertion) -> Option<&'static str> {
    let why = match assertion {
        Assertion::PermissionDecides(_) => {
            "Pi has no permission overlays; judge a gate with `tool_start_blocks` (a `tool_call` handler returning `{ block: true }`)"
        }
        Assertion::RunsUnderProfile(_) => "capability profiles are Letta's surfaces; Pi runs every extension with the whole API",
        Assertion::TurnStartCancels(cancels) if cancels.reason_contains.is_some() => {
            "Pi's `input` handler cancels with `{ action: \"handled\" }`, which carries no reason: drop `reasonContains`"
        }
        Assertion::DisposesCleanly(disposes) if disposes.require_own_cleanup == Some(true) => {
            "Pi removes an extension's handlers, tools, commands and `pi.events` subscriptions itself when it shuts the extension down: drop `requireOwnCleanup`"
        }
        Assertion::NoPendingPlugin(_) => "only DSH parks a plugin PENDING; a Pi extension loads or fails",
        Assertion::DeclaresWhatItUses(_) => "a Pi extension declares no services: its whole API is the `pi` object",
        Assertion::PostExecuteDecides(decides) if decides.context_contains.is_some() => {
            "Pi's `tool_result` adds no messages for the next step: drop `contextContains`"
        }
        _ => return None,
    };
    Some(why)
}

// turn_start input rules: what counts as valid input, the approval-first
// reorder, and cancel-reason normalisation.

/** Valid input is an array whose every item is a non-null object. */
export function isTurnStartInput(value) {
  return Array.isArray(value) && value.every((item) => item !== null && typeof item === "object");
}

/** True when any item is an approval. */
export function hasApproval(input) {
  return Array.isArray(input) && input.some((item) => item && item.type === "approval");
}

/**
 * Approvals must come first when the original input had one: a stable
 * partition, applied only if some approval follows a non-approval item.
 * Otherwise the same array comes back.
 */
export function preserveApprovalFirst(hadApproval, input) {
  if (!hadApproval || !Array.isArray(input)) return input;
  let seenOther = false;
  let misplaced = false;
  for (const item of input) {
    const isApproval = item && item.type === "approval";
    if (!isApproval) seenOther = true;
    else if (seenOther) {
      misplaced = true;
      break;
    }
  }
  if (!misplaced) return input;
  return [
    ...input.filter((item) => item && item.type === "approval"),
    ...input.filter((item) => !(item && item.type === "approval")),
  ];
}

const MAX_CANCEL_REASON = 2000;

/** A cancel reason: a string, trimmed, non-empty, at most 2000 characters. */
export function normalizeCancelReason(cancel) {
  if (!cancel || typeof cancel !== "object" || typeof cancel.reason !== "string") return undefined;
  const reason = cancel.reason.trim();
  if (reason === "") return undefined;
  return reason.slice(0, MAX_CANCEL_REASON);
}

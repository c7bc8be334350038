/** Evidence predicates of the mock judge: what the outcome text says happened (memoized per view). */
import { DESTRUCTIVE, DONE, FAILURE, NEGATED_DONE, NEGATED_FAILURE } from './keywords';
import { perView, type MockView } from './view';

const clean = (text: string) => text.replace(NEGATED_FAILURE, ' ').replace(NEGATED_DONE, ' ');

/** The view's outcome text with negated outcomes removed (memoized). */
export const cleanOutcome: (view: MockView) => string = perView((view) => clean(view.outcome));

/** Outcome text reports a failure (negated failures removed). */
export const failureEvidence: (view: MockView) => boolean = perView((view) => FAILURE.test(cleanOutcome(view)));

/** Outcome text reports completion and no failure. */
export const completionEvidence: (view: MockView) => boolean = perView((view) => DONE.test(cleanOutcome(view)) && !failureEvidence(view));

/** The state (anything but metadata) mentions a destructive or production-facing operation. */
export const destructiveEvidence: (view: MockView) => boolean = perView((view) => DESTRUCTIVE.test(view.all));

// Every user-visible text the specification fixes word for word (docs/requirements.md), in one place so
// screens and tests (unit and browser) share it.
import { WATCH_FIRE_PERIOD_HOURS } from '@app/domain/watches';

export const VALIDATION = {
  emailInvalid: 'Invalid email address',
  emailRequired: 'Email is required',
  usernameRequired: 'Username is required',
  passwordMin: 'Password must be at least 8 characters',
  passwordRequired: 'Password is required',
  passwordsDoNotMatch: 'The passwords do not match',
  confirmRequired: 'Password confirmation is required',
  confirmRequiredAddUser: 'Please confirm your password',
  fullNameRequired: 'Full Name is required',
  titleRequiredCreate: 'Title is required.',
  titleRequiredEdit: 'Title is required',
  jobNameRequired: 'Job Name is required.',
  fileRequired: 'File is required.',
  /** Not worded by the spec, which only lists the types. */
  fileType: 'Only .csv, .xlsx and .xls files are accepted.',
} as const;

export const TOAST = {
  errorTitle: 'Error',
  genericError: 'Something went wrong.',
  successTitle: 'Success!',
  signUpSuccessTitle: 'Account created.',
  signUpSuccess: 'Your account has been created successfully.',
  signUpFailureTitle: 'Something went wrong.',
  recoveryTitle: 'Email sent.',
  recovery: 'We sent an email with a link to get back into your account.',
  passwordUpdated: 'Password updated successfully.',
  accountDeleted: 'Your account has been successfully deleted.',
  signedOutEverywhere: 'Every session of your account has ended. Log in again to go on.',
  userUpdated: 'User updated successfully.',
  userCreated: 'User created successfully.',
  itemUpdated: 'Item updated successfully.',
  itemCreated: 'Item created successfully.',
  deleted: (what: RecordKind | 'job') => `The ${what} was deleted successfully.`,
  deleteFailureTitle: 'An error occurred.',
  deleteFailure: (what: RecordKind | 'job') => `An error occurred while deleting the ${what}.`,
  /** Job control: not worded by the spec, which has no job actions. */
  jobCancelled: (n: number) => `Job cancelled: ${n} queued ${n === 1 ? 'lookup' : 'lookups'} stopped.`,
  jobRetried: (n: number) => `${n} ${n === 1 ? 'lookup' : 'lookups'} queued again.`,
  jobRepriced: (n: number) => `Re-pricing: ${n} ${n === 1 ? 'lookup' : 'lookups'} queued again.`,
  /** Scheduled re-pricing (job page): not worded by the spec. */
  scheduleSet: (days: number) => `The job will be re-priced every ${days === 1 ? 'day' : `${days} days`}.`,
  schedulePaused: 'Scheduled re-pricing paused.',
  scheduleResumed: 'Scheduled re-pricing resumed.',
  scheduleRemoved: 'Scheduled re-pricing removed.',
  /** Buy rules: not worded by the spec, which has no rules. */
  ruleSetCreated: 'Rule set created.',
  ruleSetUpdated: (version: number) => `Rule set saved as version ${version}.`,
  teamDefaultSet: (name: string) => `"${name}" is now the team default.`,
  teamDefaultUnset: (name: string) => `"${name}" is no longer the team default.`,
  ruleSetCopied: (name: string) => `Saved as "${name}", a new rule set of your own.`,
} as const;

/** Why the team default's owner may not change or delete it (the API's 403 says the same). */
export const TEAM_DEFAULT_LOCKED =
  'This rule set is the team default: only a superuser may change or delete it. Your changes are saved as a new rule set of your own.';

/** What a table row's Edit/Delete menu acts on. */
export type RecordKind = 'item' | 'user' | 'rule set' | 'watch';

/**
 * Login failure shown inline: a list detail becomes this (no trailing full stop; docs/requirements.md,
 * Login).
 */
export const LOGIN_LIST_ERROR = 'Something went wrong';

export const LIMITS = {
  passwordMin: 8,
  signUpFullNameMin: 3,
  profileFullNameMax: 30,
} as const;

/** A book's page and the header's search box. */
export const BOOK_TEXT = {
  searchLabel: 'Find a book by ISBN',
  neverLookedUp: 'This book has not been looked up yet.',
} as const;

/** Watches and notifications (issue 34). */
export const WATCH_TEXT = {
  created: 'Watch saved: you will hear when a new answer meets its conditions.',
  updated: 'Watch saved.',
  hint: `It fires when a new answer makes all of these true, once, and again only after they stop holding (at most once in ${WATCH_FIRE_PERIOD_HOURS} hours per book). A condition on the Decision is checked when the job's decisions are judged.`,
  email: 'Email me (an hourly digest at most)',
  noNotifications:
    'No notifications yet. Watch a book or a job from its page, and you will hear here when a new answer meets your conditions.',
} as const;

/** The scan page's offline pack, when its download gets no answer (the signal went). */
export const OFFLINE_PACK_TEXT = {
  notRefreshed: 'No signal: the offline pack was not refreshed. Scans use the one on this phone.',
  notDownloaded: 'No signal: the offline pack was not downloaded. Try again with a signal.',
} as const;

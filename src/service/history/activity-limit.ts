/** The most agent writes the activity list and the status bar's count hold (kept apart so the UI reads it cheaply). */
export const MAX_ACTIVITY = 200;

/** Who a save made straight to a file is credited to, in records, history and activity (the program is unknown). */
export const ANOTHER_PROGRAM = "another program";

import { addDays, daysBetween } from "./dates.js";
import type { CheckIn } from "./types.js";

/** Consecutive days with a check-in, counted back from today (or from yesterday before today's check-in). */
export function currentStreak(checkIns: readonly CheckIn[], today: string): number {
  const days = new Set(checkIns.map((c) => c.day));
  let day = days.has(today) ? today : addDays(today, -1);
  let streak = 0;
  while (days.has(day)) {
    streak += 1;
    day = addDays(day, -1);
  }
  return streak;
}

/** The longest run of consecutive days with a check-in. */
export function longestStreak(checkIns: readonly CheckIn[]): number {
  const days = [...new Set(checkIns.map((c) => c.day))].sort();
  let longest = 0;
  let run = 0;
  let previous: string | undefined;
  for (const day of days) {
    run = previous !== undefined && daysBetween(previous, day) === 1 ? run + 1 : 1;
    longest = Math.max(longest, run);
    previous = day;
  }
  return longest;
}

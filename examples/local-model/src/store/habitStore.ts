import { currentStreak } from "../habits/streak.js";
import type { CheckIn, Habit } from "../habits/types.js";

export interface HabitStore {
  add(habit: Habit): void;
  /** Records the check-in (once per day) and returns the habit's current streak. */
  checkIn(habitId: string, day: string): number;
  checkIns(habitId: string): CheckIn[];
}

/** Habits and check-ins in memory. */
export function createHabitStore(): HabitStore {
  const habits = new Map<string, Habit>();
  const log: CheckIn[] = [];
  const checkIns = (habitId: string) => log.filter((c) => c.habitId === habitId);
  return {
    add: (habit) => {
      habits.set(habit.id, habit);
    },
    checkIn: (habitId, day) => {
      if (!habits.has(habitId)) throw new Error(`Unknown habit '${habitId}'`);
      if (!log.some((c) => c.habitId === habitId && c.day === day)) log.push({ habitId, day });
      return currentStreak(checkIns(habitId), day);
    },
    checkIns,
  };
}

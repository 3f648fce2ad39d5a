// The public entry of Streaks.
export * from "./habits/streak.js";
export type { CheckIn, Habit } from "./habits/types.js";
export { createHabitStore, type HabitStore } from "./store/habitStore.js";

/** A habit to keep, checked in at most once a day. Days are UTC `YYYY-MM-DD` strings. */
export interface Habit {
  id: string;
  name: string;
  createdOn: string;
}

/** One day's check-in of a habit. */
export interface CheckIn {
  habitId: string;
  day: string;
}

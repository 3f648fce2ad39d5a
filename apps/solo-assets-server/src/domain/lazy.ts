/** A value computed once, on first use, and shared by every caller (failures are retried). */
export class Lazy<T> {
  private value: Promise<T> | undefined;
  constructor(private readonly compute: () => Promise<T>) {}
  get(): Promise<T> {
    this.value ??= this.compute().catch((error: unknown) => {
      this.value = undefined;
      throw error;
    });
    return this.value;
  }
}

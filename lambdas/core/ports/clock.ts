/** The time source. Services take a Clock so tests can fix "now" instead of waiting for it. */
export interface Clock {
  /** The current instant. */
  now(): Date;
}

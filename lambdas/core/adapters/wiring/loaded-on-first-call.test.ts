import { describe, expect, it } from 'vitest';
import { loadedOnFirstCall } from './loaded-on-first-call.ts';

interface Greeter {
  greet(name: string): Promise<string>;
  count(): Promise<number>;
}

/** A greeter whose methods read its own fields through `this`, as a class-built adapter's would. */
class CountingGreeter implements Greeter {
  private calls = 0;
  private readonly prefix: string;
  constructor(prefix: string) {
    this.prefix = prefix;
  }
  greet(name: string): Promise<string> {
    this.calls += 1;
    return Promise.resolve(`${this.prefix} ${name}`);
  }
  count(): Promise<number> {
    return Promise.resolve(this.calls);
  }
}
const greeter = (prefix: string): Greeter => new CountingGreeter(prefix);

describe('loadedOnFirstCall', () => {
  it('loads nothing until a method is called, then loads once for every later call', async () => {
    let loads = 0;
    const port = loadedOnFirstCall<Greeter>({ greet: true, count: true }, () => {
      loads += 1;
      return Promise.resolve(greeter('hello'));
    });
    expect(loads).toBe(0);
    const [first, second] = await Promise.all([port.greet('ada'), port.greet('grace')]);
    expect([first, second]).toEqual(['hello ada', 'hello grace']);
    expect(await port.count()).toBe(2);
    expect(loads).toBe(1);
  });

  it('offers exactly the methods named', () => {
    const port = loadedOnFirstCall<Greeter>({ greet: true, count: true }, () => Promise.resolve(greeter('hi')));
    expect(Object.keys(port).sort()).toEqual(['count', 'greet']);
  });

  it('answers a failed load with its error, and loads again on the next call', async () => {
    let loads = 0;
    const port = loadedOnFirstCall<Greeter>({ greet: true, count: true }, () => {
      loads += 1;
      return loads === 1 ? Promise.reject(new Error('no adapter')) : Promise.resolve(greeter('hi'));
    });
    await expect(port.greet('ada')).rejects.toThrow('no adapter');
    await expect(port.greet('ada')).resolves.toBe('hi ada');
    expect(loads).toBe(2);
  });

  it('passes a method error through unchanged', async () => {
    const failure = new Error('AccessDenied');
    const port = loadedOnFirstCall<Greeter>({ greet: true, count: true }, () =>
      Promise.resolve({ greet: () => Promise.reject(failure), count: () => Promise.resolve(0) }),
    );
    await expect(port.greet('ada')).rejects.toBe(failure);
  });
});

// Types of the jest shim (jest-compat.test.js) for converted TypeScript tests.
type Fn = (...args: any[]) => any;
export declare function describe(name: string, body: () => void): void;
export declare function it(name: string, fn: Fn): void;
export declare function test(name: string, fn: Fn): void;
export declare function beforeEach(fn: Fn): void;
export declare function afterEach(fn: Fn): void;
export declare function beforeAll(fn: Fn): void;
export declare function afterAll(fn: Fn): void;
export declare const expect: (actual: any) => any;

/// The JetBrains HTTP Client script API (`client`, `response`, `request`), written in JavaScript
/// once per context: scripts talk to these objects, and the runtime hands values in and reads
/// results out as JSON through `__reqtop` — no native callback, so a script can reach nothing
/// but what is here (no file system, no network: JavaScriptCore's bare context has neither).
enum ScriptPrelude {
    static let source = #"""
    (function (global) {
      'use strict';
      let state;
      function reset() {
        state = { results: [], logs: [], exit: false, requestVariables: Object.create(null), failure: null };
      }
      reset();
      let globals = Object.create(null);
      let input = {};

      // A value as the HTTP Client keeps it in a variable: text (objects as JSON).
      function text(value) {
        if (typeof value === 'string') return value;
        if (value === undefined || value === null) return String(value);
        if (typeof value === 'object') return JSON.stringify(value);
        return String(value);
      }
      function describe(error) {
        if (error && typeof error === 'object' && 'message' in error) return String(error.message);
        return text(error);
      }
      class ExitSignal { }
      class AssertionFailure extends Error { }

      function variableStore(read, write) {
        return {
          set(name, value) { write()[String(name)] = text(value); },
          get(name) { const value = read()[String(name)]; return value === undefined ? null : value; },
          isEmpty() { return Object.keys(read()).length === 0; },
          clear(name) { delete write()[String(name)]; },
          clearAll() { for (const key of Object.keys(read())) delete write()[key]; },
        };
      }
      const globalStore = variableStore(() => globals, () => globals);

      const client = {
        global: globalStore,
        test(name, fn) {
          try {
            fn();
            state.results.push({ name: text(name), passed: true });
          } catch (error) {
            if (error instanceof ExitSignal) throw error;
            state.results.push({ name: text(name), passed: false, message: describe(error) });
          }
        },
        assert(condition, message) {
          if (!condition) throw new AssertionFailure(message === undefined ? 'Assertion failed' : text(message));
        },
        log(...values) { state.logs.push(values.map(text).join(' ')); },
        exit() { state.exit = true; throw new ExitSignal(); },
      };

      function headerList(pairs) {
        const lower = (name) => String(name).toLowerCase();
        return {
          valueOf(name) { const found = pairs.find(([n]) => lower(n) === lower(name)); return found ? found[1] : null; },
          valuesOf(name) { return pairs.filter(([n]) => lower(n) === lower(name)).map(([, v]) => v); },
          all() { return pairs.map(([name, value]) => ({ name, value })); },
        };
      }

      function makeResponse(r) {
        const headers = headerList(r.headers);
        const type = headers.valueOf('content-type') || '';
        const mimeType = type.split(';')[0].trim().toLowerCase();
        const charsetMatch = /charset\s*=\s*"?([^";\s]+)/i.exec(type);
        let body = r.body;
        if (body !== null && (mimeType === 'application/json' || mimeType.endsWith('+json'))) {
          try { body = JSON.parse(body); } catch (error) { /* not JSON after all: the text */ }
        }
        return {
          status: r.status,
          body,
          headers,
          contentType: { mimeType, charset: charsetMatch ? charsetMatch[1] : null },
        };
      }

      function makeRequest(r) {
        const substituted = (raw) => ({ getRaw: () => raw.raw, tryGetSubstituted: () => raw.substituted, toString: () => raw.substituted });
        const headers = r.headers.map(([name, raw, value]) => ({
          name, getRawValue: () => raw, tryGetSubstitutedValue: () => value, value,
        }));
        return {
          method: r.method,
          url: substituted(r.url),
          body: { getRaw: () => r.body.raw, tryGetSubstituted: () => r.body.substituted },
          headers: {
            all: () => headers.slice(),
            findByName: (name) => headers.find((h) => h.name.toLowerCase() === String(name).toLowerCase()) || null,
          },
          environment: {
            get(name) { const value = input.environment[String(name)]; return value === undefined ? null : value; },
          },
          variables: variableStore(() => state.requestVariables, () => state.requestVariables),
        };
      }

      Object.defineProperty(global, '__reqtop', { value: Object.freeze({
        // Before a script: what it may read.
        begin(json) {
          reset();
          input = JSON.parse(json);
          global.client = client;
          global.request = input.request ? makeRequest(input.request) : undefined;
          global.response = input.response ? makeResponse(input.response) : undefined;
        },
        // A script's own error, or its client.exit(), as the runtime reads it.
        settle(error) {
          if (error instanceof ExitSignal) return;
          if (error instanceof AssertionFailure) {
            state.results.push({ name: 'client.assert', passed: false, message: error.message });
            return;
          }
          throw error;
        },
        setGlobals(json) { globals = Object.assign(Object.create(null), JSON.parse(json)); },
        // After a script: what it did.
        take() {
          return JSON.stringify({ globals, results: state.results, logs: state.logs, exit: state.exit,
                                  requestVariables: state.requestVariables });
        },
      }) });
    })(this);
    """#
}

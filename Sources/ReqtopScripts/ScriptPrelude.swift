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
        state = { results: [], logs: [], exit: false, requestVariables: Object.create(null), failure: null, addedHeaders: [] };
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

      // The ways one call makes a huge string, capped: `'x'.repeat(2 ** 30)` would take a gigabyte
      // before the time limit could stop the script. A script that asks for more fails, located.
      const stringLimit = 64 * 1024 * 1024;
      for (const name of ['repeat', 'padStart', 'padEnd']) {
        const original = String.prototype[name];
        Object.defineProperty(String.prototype, name, { configurable: false, writable: false, value: function (count, ...rest) {
          const length = name === 'repeat' ? String(this).length * Number(count) : Number(count);
          if (length > stringLimit) throw new RangeError(`${name} would make a string of ${length} characters, over reqtop's ${stringLimit} limit for scripts`);
          return original.call(this, count, ...rest);
        } });
      }

      // crypto: the JetBrains HTTP Client's hashers over OpenSSL (the native __reqtopDigest, kept out of sight).
      const digestNative = global.__reqtopDigest;
      delete global.__reqtopDigest;
      function utf8(text) {
        const bytes = [];
        for (const char of String(text)) {
          let c = char.codePointAt(0);
          if (c < 0x80) bytes.push(c);
          else if (c < 0x800) bytes.push(0xc0 | (c >> 6), 0x80 | (c & 63));
          else if (c < 0x10000) bytes.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
          else bytes.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
        }
        return bytes;
      }
      const hex = (bytes) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
      const fromHex = (text) => (String(text).match(/../g) || []).map((pair) => parseInt(pair, 16));
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      function toBase64(bytes, urlSafe) {
        let out = '';
        for (let i = 0; i < bytes.length; i += 3) {
          const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
          out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63];
          out += i + 1 < bytes.length ? alphabet[(n >> 6) & 63] : '=';
          out += i + 2 < bytes.length ? alphabet[n & 63] : '=';
        }
        return urlSafe ? out.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : out;
      }
      function fromBase64(text) {
        const clean = String(text).replace(/-/g, '+').replace(/_/g, '/').replace(/[^A-Za-z0-9+/]/g, '');
        const bytes = [];
        for (let i = 0; i < clean.length; i += 4) {
          const n = (alphabet.indexOf(clean[i]) << 18) | (alphabet.indexOf(clean[i + 1]) << 12)
            | ((alphabet.indexOf(clean[i + 2]) & 63) << 6) | (alphabet.indexOf(clean[i + 3]) & 63);
          bytes.push((n >> 16) & 255);
          if (i + 2 < clean.length) bytes.push((n >> 8) & 255);
          if (i + 3 < clean.length) bytes.push(n & 255);
        }
        return bytes;
      }
      function hasher(algorithm, key) {
        let data = [];
        const self = {
          updateWithText(text) { data = data.concat(utf8(text)); return self; },
          updateWithHex(text) { data = data.concat(fromHex(text)); return self; },
          updateWithBase64(text) { data = data.concat(fromBase64(text)); return self; },
          digest() {
            const bytes = fromHex(digestNative(algorithm, key === null ? null : hex(key), hex(data)));
            return { toHex: () => hex(bytes), toBase64: (urlSafe) => toBase64(bytes, urlSafe === true) };
          },
        };
        return self;
      }
      function keyed(algorithm) {
        return () => ({
          withTextSecret: (secret) => hasher(algorithm, utf8(secret)),
          withHexSecret: (secret) => hasher(algorithm, fromHex(secret)),
          withBase64Secret: (secret) => hasher(algorithm, fromBase64(secret)),
        });
      }
      const algorithms = ['md5', 'sha1', 'sha256', 'sha384', 'sha512'];
      const crypto = { hmac: {} };
      for (const algorithm of algorithms) {
        crypto[algorithm] = () => hasher(algorithm, null);
        crypto.hmac[algorithm] = keyed(algorithm);
      }
      global.crypto = Object.freeze(crypto);

      // $random: the JetBrains HTTP Client's generators, as its dynamic variables have them.
      function pick(alphabet, length) {
        let out = '';
        for (let i = 0; i < Math.max(0, Math.floor(length)); i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
        return out;
      }
      const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
      global.$random = Object.freeze({
        get uuid() {
          const h = pick('0123456789abcdef', 32).split('');
          h[12] = '4';
          h[16] = '89ab'[Math.floor(Math.random() * 4)];
          const s = h.join('');
          return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
        },
        integer(from = 0, to = 1000) { return Math.floor(from + Math.random() * (to - from)); },
        float(from = 0, to = 1000) { return from + Math.random() * (to - from); },
        alphabetic(length = 10) { return pick(letters, length); },
        alphanumeric(length = 10) { return pick(letters + '0123456789_', length); },
        hexadecimal(length = 10) { return pick('0123456789abcdef', length); },
        get email() { return pick('abcdefghijklmnopqrstuvwxyz', 8) + '@' + pick('abcdefghijklmnopqrstuvwxyz', 6) + '.com'; },
      });

      // pm: Postman's script API over the same state (its environment, collection and global
      // variables are the run's globals; pm.test is client.test).
      function deepEqual(a, b) {
        if (a === b) return true;
        if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
        if (Array.isArray(a) !== Array.isArray(b)) return false;
        const ka = Object.keys(a), kb = Object.keys(b);
        return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
      }
      function show(value) { try { return JSON.stringify(value); } catch (e) { return String(value); } }
      function expect(actual) {
        let negate = false;
        const check = (ok, message) => { if (negate ? ok : !ok) throw new AssertionFailure((negate ? 'not: ' : '') + message); return chain; };
        const chain = {
          get to() { return chain; }, get be() { return chain; }, get been() { return chain; }, get is() { return chain; },
          get that() { return chain; }, get which() { return chain; }, get and() { return chain; }, get has() { return chain; },
          get have() { return chain; }, get with() { return chain; }, get of() { return chain; }, get deep() { return chain; },
          get not() { negate = !negate; return chain; },
          get ok() { return check(!!actual, `expected ${show(actual)} to be truthy`); },
          get true() { return check(actual === true, `expected ${show(actual)} to be true`); },
          get false() { return check(actual === false, `expected ${show(actual)} to be false`); },
          get null() { return check(actual === null, `expected ${show(actual)} to be null`); },
          get undefined() { return check(actual === undefined, `expected ${show(actual)} to be undefined`); },
          get empty() { return check(actual != null && (actual.length === 0 || (typeof actual === 'object' && Object.keys(actual).length === 0)), `expected ${show(actual)} to be empty`); },
          equal(value) { return check(actual === value, `expected ${show(actual)} to equal ${show(value)}`); },
          equals(value) { return chain.equal(value); },
          eql(value) { return check(deepEqual(actual, value), `expected ${show(actual)} to deeply equal ${show(value)}`); },
          above(n) { return check(actual > n, `expected ${show(actual)} to be above ${n}`); },
          below(n) { return check(actual < n, `expected ${show(actual)} to be below ${n}`); },
          least(n) { return check(actual >= n, `expected ${show(actual)} to be at least ${n}`); },
          most(n) { return check(actual <= n, `expected ${show(actual)} to be at most ${n}`); },
          oneOf(list) { return check(list.includes(actual), `expected ${show(actual)} to be one of ${show(list)}`); },
          a(type) { const t = Array.isArray(actual) ? 'array' : actual === null ? 'null' : typeof actual; return check(t === String(type).toLowerCase(), `expected ${show(actual)} to be a ${type}`); },
          an(type) { return chain.a(type); },
          include(value) {
            const ok = typeof actual === 'string' || Array.isArray(actual) ? actual.includes(value)
              : actual && typeof value === 'object' ? Object.keys(value).every((k) => deepEqual(actual[k], value[k])) : false;
            return check(ok, `expected ${show(actual)} to include ${show(value)}`);
          },
          contain(value) { return chain.include(value); },
          property(name, value) {
            const has = actual != null && Object.prototype.hasOwnProperty.call(Object(actual), name);
            check(has && (arguments.length < 2 || deepEqual(actual[name], value)),
                  `expected ${show(actual)} to have property ${show(name)}` + (arguments.length < 2 ? '' : ` of ${show(value)}`));
            return chain;
          },
          lengthOf(n) { return check(actual != null && actual.length === n, `expected ${show(actual)} to have length ${n}`); },
          match(re) { return check(re.test(String(actual)), `expected ${show(actual)} to match ${re}`); },
          status(code) { return check(global.response && global.response.status === code, `expected status ${code}, got ${global.response && global.response.status}`); },
          header(name, value) {
            const got = global.response && global.response.headers.valueOf(name);
            return check(got !== null && (value === undefined || got === value), `expected the header ${name}` + (value === undefined ? '' : `: ${value}`) + `, got ${show(got)}`);
          },
          get json() { return check(global.response && typeof global.response.body === 'object', 'expected a JSON body'); },
        };
        return chain;
      }
      function pmVariables() {
        return {
          get: (name) => globalStore.get(name) === null ? (input.environment[name] === undefined ? undefined : input.environment[name]) : globalStore.get(name),
          set: (name, value) => globalStore.set(name, value),
          unset: (name) => globalStore.clear(name),
          has: (name) => globalStore.get(name) !== null || input.environment[name] !== undefined,
          clear: () => globalStore.clearAll(),
          replaceIn: (text) => String(text).replace(/\{\{([^{}]+)\}\}/g, (whole, name) => {
            const value = globalStore.get(name.trim());
            return value === null ? (input.environment[name.trim()] ?? whole) : value;
          }),
        };
      }
      function makePm() {
        const r = global.response;
        const response = r && {
          code: r.status, status: r.status, statusText: r.statusText || '',
          headers: { get: (name) => r.headers.valueOf(name), has: (name) => r.headers.valueOf(name) !== null, all: () => r.headers.all() },
          json: () => (typeof r.body === 'object' ? r.body : JSON.parse(r.body)),
          text: () => (typeof r.body === 'string' ? r.body : JSON.stringify(r.body)),
          responseTime: 0,
          get to() { return expect(undefined); },
        };
        const req = global.request;
        return {
          environment: pmVariables(), collectionVariables: pmVariables(), globals: pmVariables(), variables: pmVariables(),
          test: (name, fn) => client.test(name, fn),
          expect,
          response,
          request: req && {
            method: req.method, url: { toString: () => req.url.tryGetSubstituted() },
            headers: {
              add: (h) => state.addedHeaders.push([String(h.key), String(h.value)]),
              upsert: (h) => state.addedHeaders.push([String(h.key), String(h.value)]),
              get: (name) => { const h = req.headers.findByName(name); return h ? h.value : undefined; },
            },
          },
          info: { requestName: input.requestName || '' },
          sendRequest: () => { throw new Error('pm.sendRequest is not supported by reqtop: give the request its own entry in the list'); },
        };
      }

      // bru, req, res, test, expect: Bruno's script API over the same state (its runtime and
      // environment variables are the run's globals).
      function makeBruno() {
        const r = global.response;
        const req = global.request;
        const lowerHeaders = {};
        if (r) for (const { name, value } of r.headers.all()) lowerHeaders[name.toLowerCase()] = value;
        const bru = {
          setVar: (name, value) => globalStore.set(name, value),
          getVar: (name) => { const v = globalStore.get(name); return v === null ? undefined : v; },
          setEnvVar: (name, value) => globalStore.set(name, value),
          getEnvVar: (name) => { const v = globalStore.get(name); return v !== null ? v : input.environment[String(name)]; },
          getProcessEnv: () => undefined,
          interpolate: (text) => pmVariables().replaceIn(text),
          sleep: () => undefined,
          setNextRequest: () => { throw new Error('bru.setNextRequest is not supported by reqtop: the list runs in its order'); },
          runRequest: () => { throw new Error('bru.runRequest is not supported by reqtop: give the request its own place in the collection'); },
        };
        const res = r && {
          status: r.status, body: r.body, headers: lowerHeaders, responseTime: 0,
          getStatus: () => r.status, getBody: () => r.body, getHeader: (name) => lowerHeaders[String(name).toLowerCase()],
          getHeaders: () => lowerHeaders, getResponseTime: () => 0,
        };
        const bruReq = req && {
          url: req.url.tryGetSubstituted(), method: req.method,
          getUrl: () => req.url.tryGetSubstituted(), getMethod: () => req.method,
          getHeader: (name) => { const h = req.headers.findByName(name); return h ? h.value : undefined; },
          setHeader: (name, value) => state.addedHeaders.push([String(name), String(value)]),
          getBody: () => req.body.tryGetSubstituted(),
          setBody: () => { throw new Error('req.setBody is not supported by reqtop: write the body in the request'); },
        };
        return { bru, res, req: bruReq };
      }

      Object.defineProperty(global, '__reqtop', { value: Object.freeze({
        // Before a script: what it may read.
        begin(json) {
          reset();
          input = JSON.parse(json);
          global.client = client;
          global.request = input.request ? makeRequest(input.request) : undefined;
          global.response = input.response ? makeResponse(input.response) : undefined;
          global.pm = makePm();
          // Postman's older sandbox API (collections exported before 2018 still use it).
          const r = input.response;
          global.postman = {
            setEnvironmentVariable: (name, value) => globalStore.set(name, value),
            getEnvironmentVariable: (name) => pmVariables().get(name),
            clearEnvironmentVariable: (name) => globalStore.clear(name),
            setGlobalVariable: (name, value) => globalStore.set(name, value),
            getGlobalVariable: (name) => pmVariables().get(name),
            clearGlobalVariable: (name) => globalStore.clear(name),
            getResponseHeader: (name) => (global.response ? global.response.headers.valueOf(name) : null),
            setNextRequest: () => { throw new Error('postman.setNextRequest is not supported by reqtop: the list runs in its order'); },
          };
          global.tests = {};
          global.environment = Object.assign(Object.create(null), input.environment, globals);
          global.globals = Object.assign(Object.create(null), globals);
          global.responseBody = r ? (r.body === null ? '' : r.body) : undefined;
          global.responseCode = r ? { code: r.status, name: '', detail: '' } : undefined;
          global.responseHeaders = r ? Object.fromEntries(r.headers) : undefined;
          global.responseTime = 0;
          const bruno = makeBruno();
          global.bru = bruno.bru;
          global.res = bruno.res;
          global.req = bruno.req;
          global.test = (name, fn) => client.test(name, fn);
          global.expect = expect;
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
          // Postman's older `tests["name"] = condition`: one result per key.
          if (global.tests && typeof global.tests === 'object') {
            for (const name of Object.keys(global.tests)) state.results.push({ name, passed: !!global.tests[name] });
            global.tests = {};
          }
          return JSON.stringify({ globals, results: state.results, logs: state.logs, exit: state.exit,
                                  requestVariables: state.requestVariables, addedHeaders: state.addedHeaders });
        },
      }) });
    })(this);
    """#
}

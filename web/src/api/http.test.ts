import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/mock-api';
import { ApiError, NetworkError, request, setTokenSource } from './http';

afterEach(() => setTokenSource(null));

describe('request', () => {
  it('sends JSON with the bearer token and decodes the answer', async () => {
    const api = mockApi({ 'PATCH /api/admin/nodes/3': { status: 204 } });
    setTokenSource({ token: () => 'tok', refresh: () => Promise.resolve(null) });
    await expect(
      request('/api/admin/nodes/3', { method: 'PATCH', body: { name: 'x' } }),
    ).resolves.toBeUndefined();
    const [call] = api.calls;
    expect(call?.headers.authorization).toBe('Bearer tok');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({ name: 'x' });
  });

  it('leaves out undefined query values', async () => {
    const api = mockApi({ 'GET /api/metrics/history': { body: { points: [] } } });
    await request('/api/metrics/history', { query: { server_id: '1', device: undefined } });
    expect(api.calls[0]?.query.toString()).toBe('server_id=1');
  });

  it('turns the error body into an ApiError with status, code and message', async () => {
    mockApi({
      'POST /api/admin/groups/': {
        status: 400,
        body: { code: 'invalid_name', message: 'bad name' },
      },
    });
    const err = await request('/api/admin/groups/', { method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'invalid_name', message: 'bad name' });
  });

  it('gives a status-derived code when the error body is not JSON', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>bad gateway</html>', { status: 502 }))),
    );
    await expect(request('/api/front/brand')).rejects.toMatchObject({
      code: 'http_502',
      status: 502,
    });
  });

  it('reports a network failure as NetworkError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(request('/api/front/brand')).rejects.toBeInstanceOf(NetworkError);
  });

  it('refreshes once on 401 and retries with the new token', async () => {
    let n = 0;
    const api = mockApi({
      'GET /api/admin/nodes/': (c) =>
        c.headers.authorization === 'Bearer new'
          ? { body: [] }
          : { status: 401, body: { code: 'unauthorized', message: 'expired' } },
    });
    setTokenSource({ token: () => 'old', refresh: () => Promise.resolve(`new${n++ ? 'er' : ''}`) });
    await expect(request('/api/admin/nodes/')).resolves.toEqual([]);
    expect(api.calls.map((c) => c.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
  });

  it('gives up after one retry and does not refresh without a token', async () => {
    const api = mockApi({
      'GET /api/admin/nodes/': { status: 401, body: { code: 'unauthorized', message: 'no' } },
    });
    const refresh = vi.fn(() => Promise.resolve('still-bad'));
    setTokenSource({ token: () => 'old', refresh });
    await expect(request('/api/admin/nodes/')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(api.calls).toHaveLength(2);

    setTokenSource(null);
    await expect(request('/api/admin/nodes/')).rejects.toMatchObject({ status: 401 });
    expect(api.calls).toHaveLength(3);
  });
});

import type { FastifyError, FastifyInstance } from 'fastify';
import { DealerError, type ErrorBody } from '../errors.ts';

/** Dotted field name from an AJV error, e.g. `body.leaves.3` or `body.signature`. */
function validationField(e: FastifyError): string | undefined {
  const v = e.validation?.[0];
  if (!v) return undefined;
  const path = v.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const params = v.params as { missingProperty?: string; additionalProperty?: string };
  const leaf = params.missingProperty ?? params.additionalProperty;
  return [e.validationContext, path, leaf].filter(Boolean).join('.');
}

/**
 * Every error leaves as `{statusCode, error, message, field?}`. Only DealerErrors and Fastify's own
 * client errors carry their message out; anything else is a 500 with a fixed message, so an internal
 * error can never echo a secret into a response.
 */
export function errorsPlugin(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let body: ErrorBody;
    if (err instanceof DealerError) {
      body = { statusCode: err.statusCode, error: err.code, message: err.message, field: err.field };
      if (err.retryAfter !== undefined) reply.header('retry-after', String(err.retryAfter));
    } else if (err.validation) {
      const field = validationField(err);
      body = {
        statusCode: 400,
        error: 'invalid-request',
        message: `${field ?? 'request'}: ${err.validation[0]?.message}`,
        field,
      };
    } else if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) {
      body = { statusCode: 400, error: 'malformed-json', message: 'body: not valid JSON', field: 'body' };
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      body = {
        statusCode: 413,
        error: 'body-too-large',
        message: 'body: larger than the limit',
        field: 'body',
      };
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      body = {
        statusCode: 415,
        error: 'unsupported-media-type',
        message: 'content-type: send application/json',
      };
    } else if (err.statusCode === 429) {
      body = { statusCode: 429, error: 'rate-limited', message: 'too many requests' };
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      body = { statusCode: err.statusCode, error: 'bad-request', message: err.code ?? 'bad request' };
    } else {
      req.log.error({ errName: err.name, code: err.code }, 'internal error');
      body = { statusCode: 500, error: 'internal', message: 'internal error' };
    }
    if (body.statusCode < 500)
      req.log.info({ status: body.statusCode, error: body.error, field: body.field }, 'refused');
    return reply.status(body.statusCode).send(body);
  });
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({
      statusCode: 404,
      error: 'not-found',
      message: `no route ${req.method} ${req.url.split('?')[0]}`,
    }),
  );
}

import { notFound } from '@tanstack/react-router';
import { isApiError } from '../lib/api-client';

/**
 * A 404 of the API while loading a route becomes the route's "not found" (its notFoundComponent), a state the
 * router expects, instead of an error it reports. Other failures stay errors.
 */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (isApiError(error, 404)) throw notFound();
    throw error;
  }
}

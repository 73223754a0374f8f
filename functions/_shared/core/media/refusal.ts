// Why a file is refused, with the status the API answers: thrown by the checks and the processing
// of core/media/, rendered by the upload route in the contract's error format.
export class MediaRefusal extends Error {
  constructor(readonly status: 413 | 415 | 422, message: string) {
    super(message);
  }
}

/** Too many images are waiting to be made: the upload is to be sent again shortly (503). */
export class MediaBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The media processing is busy; try again shortly');
  }
}

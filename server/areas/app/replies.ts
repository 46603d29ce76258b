// What the app hears about the alarms the service raised (docs/alarms.md "Answered"): a device's answer
// (A10, A11) and a push's arrival (push/delivered). The alarms area implements it; the app area only
// reports, so it never reads the alarms' collections.

/** A user's answer to an alarm: coming (true) or not, with how far he is and how long he needs. */
export interface AlarmAnswer {
  organizationId: number;
  alarmId: number;
  userId: number;
  response: boolean;
  distance: number | null;
  duration: number | null;
  /**
   * Who entered it when not the member's own app: an admin's personal token or the organization's API key
   * (a dispatcher entering an answer given by phone, A10 with the member's device). Null: the member.
   */
  enteredBy?: EnteredBy | null;
  /** Taken only while the alarm runs (the answer link, a reply SMS, the call's keys): 409 `alarm_ended` after. */
  whileRunning?: boolean;
}

/** Who entered an answer for a member: a user (by his id) or an API key (by its id). */
export interface EnteredBy {
  kind: 'user' | 'apikey';
  id: number;
}

export interface AlarmReplies {
  /** Records the answer when the organization has an alarm of that ID (else it concerns another system's alarm). */
  answered(answer: AlarmAnswer): Promise<void>;
  /** A push of the alarm reached the device. */
  delivered(alarmId: number, deviceId: number): Promise<void>;
}

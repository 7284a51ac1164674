/** Notifications: the service's signed, retried delivery and the partner's receiver (see each module). */
export { signNotification, verifyNotificationSignature } from './signature';
export {
  createWebhookSender,
  type DeliveryAttempt,
  type DeliveryRecord,
  type WebhookLog,
  type WebhookSender,
  type WebhookSenderOptions,
  type WebhookTarget,
} from './sender';
export {
  createNotificationReceiver,
  type NotificationReceiver,
  type ReceiverOptions,
  type ReceiverRequest,
  type ReceiverResponse,
} from './receiver';
export {
  DEFAULT_NOTIFICATION_PATH,
  startNotificationReceiver,
  type ReceiverServerOptions,
  type RunningReceiver,
} from './receiver-server';

import { describe, expect, it } from 'vitest';
import { MetricsRegistry, type MetricsConfig } from '@keel/metrics';
import { ServerAdmissionMetrics } from './admission-metrics.js';

const config: MetricsConfig = {
  disabledMetrics: [],
  showHiddenMetricsForVersion: '',
  showHiddenMetrics: false,
  allowMetricLabels: [],
};

describe('ServerAdmissionMetrics', () => {
  it('keeps one series per type, operation and outcome of each name', async () => {
    const r = new MetricsRegistry(config);
    const m = new ServerAdmissionMetrics(r);
    m.step.observe('admit', 'CREATE', false, 0.001);
    m.step.observe('admit', 'CREATE', false, 0.2);
    m.step.observe('validate', 'DELETE', true, 3);
    const deny = m.controller('AlwaysDeny');
    expect(m.controller('AlwaysDeny')).toBe(deny);
    deny.observe('validate', 'CONNECT', true, 0.01);
    m.webhook('a.keel.test').observe('validating', 'UPDATE', false, 12);
    const text = await r.render();
    const step = 'apiserver_admission_step_admission_duration_seconds';
    expect(text).toContain(`${step}_count{type="admit",operation="CREATE",rejected="false"} 2`);
    expect(text).toContain(`${step}_bucket{le="0.005",type="admit",operation="CREATE",rejected="false"} 1`);
    expect(text).toContain(`${step}_bucket{le="2.5",type="validate",operation="DELETE",rejected="true"} 0`);
    expect(text).toContain(`${step}_count{type="validate",operation="DELETE",rejected="true"} 1`);
    expect(text).toContain(
      'apiserver_admission_controller_admission_duration_seconds_count{name="AlwaysDeny",type="validate",operation="CONNECT",rejected="true"} 1',
    );
    // Webhooks have buckets up to 25 s.
    expect(text).toContain(
      'apiserver_admission_webhook_admission_duration_seconds_bucket{le="25",name="a.keel.test",type="validating",operation="UPDATE",rejected="false"} 1',
    );
  });

  it('counts webhook rejections, codes over 600 as 600', async () => {
    const r = new MetricsRegistry(config);
    const m = new ServerAdmissionMetrics(r);
    m.webhookRejection('w', 'admit', 'CREATE', 'no_error', 403);
    m.webhookRejection('w', 'admit', 'CREATE', 'no_error', 403);
    m.webhookRejection('w', 'validating', 'CREATE', 'calling_webhook_error', 999);
    const text = await r.render();
    expect(text).toContain(
      'apiserver_admission_webhook_rejection_count{name="w",type="admit",operation="CREATE",error_type="no_error",rejection_code="403"} 2',
    );
    expect(text).toContain(
      'apiserver_admission_webhook_rejection_count{name="w",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="600"} 1',
    );
  });
});

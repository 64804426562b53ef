#include "catch.hpp"
#include "core/host/doctor.hpp"
#include "core/host/idle_suspend.hpp"

using namespace bootbench::core;

namespace {

// The power plugin's schema as GNOME 44+ installs it (only the keys read).
const char* kSchema = R"(<schemalist><schema id="org.gnome.settings-daemon.plugins.power">
    <key name="sleep-inactive-ac-timeout" type="i"><default>900</default></key>
    <key name="sleep-inactive-ac-type" enum="org.gnome.settings-daemon.GsdPowerActionType">
      <default>'suspend'</default></key></schema></schemalist>)";

IdleSuspendFacts gnome_host() {
    IdleSuspendFacts f;
    f.gdm = true;
    f.power_schema = {"/usr/share/glib-2.0/schemas/org.gnome.settings-daemon.plugins.power.gschema.xml", kSchema};
    return f;
}

} // namespace

TEST_CASE("idle suspend: ini values, the last assignment in the group winning") {
    std::string text = "[Login]\n#IdleAction=suspend\nIdleAction = lock\n[Other]\nIdleAction=poweroff\n"
                       "[Login]\nIdleAction=suspend\n";
    CHECK(ini_value(text, "Login", "IdleAction") == "suspend");
    CHECK_FALSE(ini_value("[Login]\n#IdleAction=suspend\n", "Login", "IdleAction"));
    CHECK(schema_default(kSchema, "sleep-inactive-ac-type") == "suspend");
    CHECK(schema_default(kSchema, "sleep-inactive-ac-timeout") == "900");
    CHECK_FALSE(schema_default(kSchema, "idle-dim"));
}

TEST_CASE("idle suspend: logind's IdleAction from the main file and the drop-ins that override it", "[doctor]") {
    IdleSuspendFacts f;
    CHECK(check_idle_suspend(f).status == CheckStatus::ok);
    CHECK(check_idle_suspend(f).message == "no idle suspend configured (logind IdleAction, GDM)");
    f.logind = {{"/etc/systemd/logind.conf", "[Login]\nIdleAction=suspend\n"}};
    DoctorCheck c = check_idle_suspend(f);
    CHECK(c.status == CheckStatus::warn);
    CHECK(c.message == "the machine suspends when idle: logind IdleAction=suspend (/etc/systemd/logind.conf) after "
                       "IdleActionSec=30min (systemd's default). bootbench blocks sleep and idle while a boot's work "
                       "runs, not before its unit starts nor after a failure");
    CHECK(c.fix == "for an unattended machine: a drop-in /etc/systemd/logind.conf.d/90-bootbench.conf with [Login] "
                   "IdleAction=ignore");
    f.logind.push_back({"/usr/lib/systemd/logind.conf.d/10-vendor.conf", "[Login]\nIdleActionSec=15min\n"});
    CHECK(logind_setting(f.logind, "IdleActionSec", "30min").path == "/usr/lib/systemd/logind.conf.d/10-vendor.conf");
    f.logind.push_back({"/etc/systemd/logind.conf.d/90-mine.conf", "[Login]\nIdleAction=ignore\n"});
    CHECK(check_idle_suspend(f).status == CheckStatus::ok);
}

TEST_CASE("idle suspend: GDM's login screen suspends after 900 s by the schema's default", "[doctor]") {
    IdleSuspendFacts f = gnome_host();
    DoctorCheck c = check_idle_suspend(f);
    CHECK(c.status == CheckStatus::warn);
    CHECK(c.message ==
          "the machine suspends when idle: the GDM login screen does 'suspend' after 900 s idle on AC "
          "(org.gnome.settings-daemon.plugins.power sleep-inactive-ac-type from the schema's default, "
          "sleep-inactive-ac-timeout from the schema's default; the gdm user's own dconf database is not read). "
          "bootbench blocks sleep and idle while a boot's work runs, not before its unit starts nor after a failure");
    CHECK(c.fix == "for an unattended machine: a keyfile /etc/dconf/db/gdm.d/90-bootbench with "
                   "[org/gnome/settings-daemon/plugins/power] sleep-inactive-ac-type='nothing', then 'sudo dconf "
                   "update'");
    f.gdm = false; // no login screen of GNOME's: its schema alone suspends nothing
    CHECK(check_idle_suspend(f).status == CheckStatus::ok);
}

TEST_CASE("idle suspend: overrides, then GDM's dconf databases, gdm.d over local.d", "[doctor]") {
    IdleSuspendFacts f = gnome_host();
    f.schema_overrides = {{"/usr/share/glib-2.0/schemas/zz0-vendor.gschema.override",
                           "[org.gnome.settings-daemon.plugins.power]\nsleep-inactive-ac-timeout=3600\n"}};
    CHECK(gdm_power_setting(f, "sleep-inactive-ac-timeout").value == "3600");
    f.gdm_dconf = {{"/etc/dconf/db/local.d/01-power",
                    "[org/gnome/settings-daemon/plugins/power]\nsleep-inactive-ac-type='nothing'\n"}};
    CHECK(check_idle_suspend(f).status == CheckStatus::ok);
    f.gdm_dconf.push_back({"/etc/dconf/db/gdm.d/02-power",
                           "[org/gnome/settings-daemon/plugins/power]\nsleep-inactive-ac-type='hibernate'\n"});
    SettingFrom type = gdm_power_setting(f, "sleep-inactive-ac-type");
    CHECK(type.value == "hibernate");
    CHECK(type.path == "/etc/dconf/db/gdm.d/02-power");
    f.gdm_dconf.push_back({"/etc/dconf/db/gdm.d/03-never",
                           "[org/gnome/settings-daemon/plugins/power]\nsleep-inactive-ac-timeout=0\n"});
    CHECK(check_idle_suspend(f).status == CheckStatus::ok); // a timeout of 0 is never
}

TEST_CASE("idle suspend: both at once, the line names both and both fixes", "[doctor]") {
    IdleSuspendFacts f = gnome_host();
    f.logind = {{"/etc/systemd/logind.conf", "[Login]\nIdleAction=suspend-then-hibernate\nIdleActionSec=20min\n"}};
    DoctorCheck c = check_idle_suspend(f);
    CHECK(c.message.find("when idle: logind IdleAction=suspend-then-hibernate (/etc/systemd/logind.conf) after "
                         "IdleActionSec=20min (/etc/systemd/logind.conf); the GDM login screen does 'suspend' after "
                         "900 s") != std::string::npos);
    CHECK(c.fix.find("IdleAction=ignore; a keyfile /etc/dconf/db/gdm.d/90-bootbench") != std::string::npos);
}

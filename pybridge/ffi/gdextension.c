/* gdextension.c: libpybridge as a Godot 4.4-4.6 GDExtension.
 *
 * Registers one class, PyBridgeNative (a RefCounted), whose methods move JSON text through the
 * C ABI of pybridge.h:
 *
 *     var bridge := PyBridgeNative.new()
 *     var reply: String = bridge.call_json(request)   # pybridge_call()
 *     var version: String = bridge.version()           # pybridge_version()
 *
 * Every engine function comes through get_proc_address (see gdextension_api.h) and is
 * checked before the library says it can run. Nothing here crashes on a bad call: wrong
 * arguments become a call error for the engine to report, a Python that cannot start
 * gives the runtime_unavailable response (and one print_error), and an allocation that
 * fails gives an internal_error response. call_json takes any value the engine converts to
 * a String (what String(value) gives), as an engine method with a String parameter would;
 * new objects get NOTIFICATION_POSTINITIALIZE when the engine asks for it, as godot-cpp
 * sends it.
 *
 * Thread safety: the interface table is written by the entry symbol and the class names
 * by the SCENE initialization, both before any call; calls only read them, and
 * pybridge_call() may run on any thread.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdextension_api.h"
#include "pybridge.h"
#include "pybridge_responses.h"

#ifdef _WIN32
#define PYBRIDGE_GD_EXPORT __declspec(dllexport) /* a DLL exports only what is marked */
#else
#define PYBRIDGE_GD_EXPORT __attribute__((visibility("default")))
#endif
#define PYBRIDGE_GD_SOURCE "pybridge/ffi/gdextension.c" /* for print_error */

#define PYBRIDGE_CLASS "PyBridgeNative"
#define PYBRIDGE_PARENT_CLASS "RefCounted"

/* The oldest engine this file is written for; compatibility_minimum in the .gdextension
   file says the same, so Godot itself refuses older versions first. */
#define PYBRIDGE_GODOT_MAJOR 4
#define PYBRIDGE_GODOT_MINOR 4

PYBRIDGE_GD_EXPORT GDExtensionBool
pybridge_gdextension_init(GDExtensionInterfaceGetProcAddress p_get_proc_address,
                          GDExtensionClassLibraryPtr p_library,
                          GDExtensionInitialization *r_initialization);

/* The engine functions the library uses, looked up by the entry symbol. */
static struct {
    GDExtensionClassLibraryPtr library;
    GDExtensionInterfacePrintError print_error;
    GDExtensionInterfaceVariantDestroy variant_destroy;
    GDExtensionInterfaceVariantGetType variant_get_type;
    GDExtensionInterfaceVariantStringify variant_stringify;
    GDExtensionInterfaceGetVariantFromTypeConstructor get_variant_from_type_constructor;
    GDExtensionInterfaceGetVariantToTypeConstructor get_variant_to_type_constructor;
    GDExtensionInterfaceVariantGetPtrDestructor variant_get_ptr_destructor;
    GDExtensionInterfaceStringNewWithUtf8CharsAndLen2 string_new_with_utf8_chars_and_len2;
    GDExtensionInterfaceStringToUtf8Chars string_to_utf8_chars;
    GDExtensionInterfaceStringNameNewWithLatin1Chars string_name_new_with_latin1_chars;
    GDExtensionInterfaceClassdbConstructObject2 classdb_construct_object2;
    GDExtensionInterfaceObjectSetInstance object_set_instance;
    GDExtensionInterfaceClassdbGetMethodBind classdb_get_method_bind;
    GDExtensionInterfaceObjectMethodBindPtrcall object_method_bind_ptrcall;
    /* classdb_register_extension_class5 on 4.5+, ..._class4 on 4.4: the same signature */
    GDExtensionInterfaceClassdbRegisterExtensionClass5 register_extension_class;
    GDExtensionInterfaceClassdbRegisterExtensionClassMethod classdb_register_extension_class_method;
    GDExtensionInterfaceClassdbUnregisterExtensionClass classdb_unregister_extension_class;
} gd;

/* Resolved from the interface at SCENE initialization. */
static struct {
    GDExtensionVariantFromTypeConstructorFunc variant_from_string;
    GDExtensionTypeFromVariantConstructorFunc string_from_variant;
    GDExtensionPtrDestructor string_destroy;
    GDExtensionPtrDestructor string_name_destroy;
    GDExtensionMethodBindPtr object_notification; /* Object.notification, NULL if not found */
} types;

static PyBridgeGdStringName class_name;  /* "PyBridgeNative", live while registered */
static PyBridgeGdStringName parent_name; /* "RefCounted", live while registered */
static int class_registered = 0;
static atomic_flag unavailable_reported = ATOMIC_FLAG_INIT;

/* What each PyBridgeNative object carries. The class keeps no state today; the allocation keeps
   the door open for per-bridge state and lets hosts tell instances apart. */
struct pybridge_instance {
    unsigned int tag;
};
#define PYBRIDGE_INSTANCE_TAG 0x50794272u /* "PyBr" */
static struct pybridge_instance shared_instance = {PYBRIDGE_INSTANCE_TAG}; /* if malloc fails */

/* Answered when the request cannot even be copied out of the engine's String. */
static char no_memory_reply[] = PYBRIDGE_INTERNAL_ERROR;
static const char unavailable_reply[] = PYBRIDGE_UNAVAILABLE_ERROR;

/* -- reporting ----------------------------------------------------------------------------- */

static void report(const char *function, int line, const char *message)
{
    if (gd.print_error != NULL)
        gd.print_error(message, function, PYBRIDGE_GD_SOURCE, line, 1);
    else
        fprintf(stderr, "libpybridge: %s\n", message);
}

/* -- strings --------------------------------------------------------------------------------- */

/* Constructs a String from NUL-terminated UTF-8 into uninitialized storage. */
static void new_string(GDExtensionUninitializedStringPtr r_dest, const char *utf8)
{
    /* Our texts are valid UTF-8 (responses are, by construction), so the error code the
       engine returns for broken UTF-8 cannot come up; the String is constructed anyway. */
    (void)gd.string_new_with_utf8_chars_and_len2(r_dest, utf8, (GDExtensionInt)strlen(utf8));
}

/* The UTF-8 form of a String as a malloc'ed NUL-terminated copy, or NULL if out of memory. */
static char *utf8_copy(GDExtensionConstStringPtr text)
{
    GDExtensionInt length = gd.string_to_utf8_chars(text, NULL, 0);
    if (length < 0 || (unsigned long long)length >= (unsigned long long)SIZE_MAX)
        return NULL;
    char *copy = malloc((size_t)length + 1);
    if (copy == NULL)
        return NULL;
    GDExtensionInt written = gd.string_to_utf8_chars(text, copy, length);
    copy[written >= 0 && written < length ? written : length] = '\0';
    return copy;
}

/* -- the bridge -------------------------------------------------------------------------------- */

/* The response to one request String, for release_reply(). Never NULL. */
static char *reply_to(GDExtensionConstStringPtr request)
{
    char *text = utf8_copy(request);
    if (text == NULL)
        return no_memory_reply;
    char *reply = pybridge_call(text);
    free(text);
    if (reply == NULL) /* pybridge_call() could not allocate even its error response */
        return no_memory_reply;
    if (strcmp(reply, unavailable_reply) == 0 && !atomic_flag_test_and_set(&unavailable_reported))
        report(__func__, __LINE__,
               "PyBridge: the embedded Python runtime could not start, so call_json() answers "
               "every request with the runtime_unavailable error; the reason is on stderr");
    return reply;
}

static void release_reply(char *reply)
{
    if (reply != no_memory_reply)
        pybridge_free(reply);
}

/* Assigns UTF-8 text to a live Variant (the engine hands us an initialized one). */
static void return_variant(GDExtensionVariantPtr r_return, const char *utf8)
{
    if (r_return == NULL)
        return;
    PyBridgeGdString text;
    new_string(&text, utf8);
    gd.variant_destroy(r_return);
    types.variant_from_string(r_return, &text); /* copies the String */
    types.string_destroy(&text);
}

/* Assigns UTF-8 text to a live String (ptrcall return values are initialized). */
static void return_string(GDExtensionTypePtr r_ret, const char *utf8)
{
    if (r_ret == NULL)
        return;
    types.string_destroy(r_ret);
    new_string(r_ret, utf8);
}

static void set_call_error(GDExtensionCallError *r_error, GDExtensionCallErrorType error,
                           int32_t argument, int32_t expected)
{
    if (r_error != NULL) {
        r_error->error = error;
        r_error->argument = argument;
        r_error->expected = expected;
    }
}

/* Does the engine convert a value of this type to a String? Every type but nil and Object
   (the engine's own rule for a String parameter). */
static int converts_to_string(GDExtensionVariantType type)
{
    return type != GDEXTENSION_VARIANT_TYPE_NIL && type != GDEXTENSION_VARIANT_TYPE_OBJECT &&
           type < GDEXTENSION_VARIANT_TYPE_VARIANT_MAX;
}

/* Checks a Variant call's arguments: `count` values the engine converts to a String.
   Reports and returns 0 if they are not. */
static int string_arguments(const GDExtensionConstVariantPtr *p_args, GDExtensionInt p_count,
                            int32_t count, GDExtensionCallError *r_error)
{
    if (p_count < count) {
        set_call_error(r_error, GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS, 0, count);
        return 0;
    }
    if (p_count > count) {
        set_call_error(r_error, GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS, 0, count);
        return 0;
    }
    for (int32_t i = 0; i < count; i++) {
        if (p_args == NULL || p_args[i] == NULL || !converts_to_string(gd.variant_get_type(p_args[i]))) {
            set_call_error(r_error, GDEXTENSION_CALL_ERROR_INVALID_ARGUMENT, i,
                           GDEXTENSION_VARIANT_TYPE_STRING);
            return 0;
        }
    }
    set_call_error(r_error, GDEXTENSION_CALL_OK, 0, 0);
    return 1;
}

/* The String form of a live Variant into uninitialized storage: a String's own copy, any
   other value the way the engine writes it (7 -> "7", a Dictionary -> its JSON-like text). */
static void string_of(GDExtensionUninitializedStringPtr r_text, GDExtensionConstVariantPtr value)
{
    if (gd.variant_get_type(value) == GDEXTENSION_VARIANT_TYPE_STRING)
        /* The engine's signature takes a non-const Variant; it only reads it. */
        types.string_from_variant(r_text, (GDExtensionVariantPtr)value);
    else
        gd.variant_stringify(value, r_text);
}

/* call_json(request: String) -> String */
static void call_json_call(void *method_userdata, GDExtensionClassInstancePtr p_instance,
                           const GDExtensionConstVariantPtr *p_args,
                           GDExtensionInt p_argument_count, GDExtensionVariantPtr r_return,
                           GDExtensionCallError *r_error)
{
    (void)method_userdata;
    (void)p_instance; /* the bridge is stateless: any instance answers the same */
    if (!string_arguments(p_args, p_argument_count, 1, r_error))
        return;
    PyBridgeGdString request;
    string_of(&request, p_args[0]);
    char *reply = reply_to(&request);
    types.string_destroy(&request);
    return_variant(r_return, reply);
    release_reply(reply);
}

static void call_json_ptrcall(void *method_userdata, GDExtensionClassInstancePtr p_instance,
                              const GDExtensionConstTypePtr *p_args, GDExtensionTypePtr r_ret)
{
    (void)method_userdata;
    (void)p_instance;
    if (r_ret == NULL)
        return; /* nowhere to answer: nothing to do */
    if (p_args == NULL || p_args[0] == NULL) {
        return_string(r_ret, PYBRIDGE_NULL_REQUEST_ERROR);
        return;
    }
    char *reply = reply_to(p_args[0]);
    return_string(r_ret, reply);
    release_reply(reply);
}

/* version() -> String */
static void version_call(void *method_userdata, GDExtensionClassInstancePtr p_instance,
                         const GDExtensionConstVariantPtr *p_args, GDExtensionInt p_argument_count,
                         GDExtensionVariantPtr r_return, GDExtensionCallError *r_error)
{
    (void)method_userdata;
    (void)p_instance;
    if (string_arguments(p_args, p_argument_count, 0, r_error))
        return_variant(r_return, pybridge_version());
}

static void version_ptrcall(void *method_userdata, GDExtensionClassInstancePtr p_instance,
                            const GDExtensionConstTypePtr *p_args, GDExtensionTypePtr r_ret)
{
    (void)method_userdata;
    (void)p_instance;
    (void)p_args;
    return_string(r_ret, pybridge_version());
}

/* -- the class ------------------------------------------------------------------------------- */

/* Sends NOTIFICATION_POSTINITIALIZE through Object.notification, as godot-cpp does once the
   instance is attached: the engine's own classes and a script on the object hear it. */
static void notify_postinitialize(GDExtensionObjectPtr object)
{
    if (types.object_notification == NULL)
        return; /* reported when the class was registered */
    int64_t what = PYBRIDGE_GD_NOTIFICATION_POSTINITIALIZE;
    uint8_t reversed = 0;
    const GDExtensionConstTypePtr arguments[2] = {&what, &reversed};
    gd.object_method_bind_ptrcall(types.object_notification, object, arguments, NULL);
}

static GDExtensionObjectPtr create_instance(void *class_userdata,
                                            GDExtensionBool p_notify_postinitialize)
{
    (void)class_userdata;
    GDExtensionObjectPtr object = gd.classdb_construct_object2(&parent_name);
    if (object == NULL) {
        report(__func__, __LINE__, "PyBridge: the engine could not construct a RefCounted");
        return NULL;
    }
    struct pybridge_instance *instance = malloc(sizeof *instance);
    if (instance == NULL)
        instance = &shared_instance;
    instance->tag = PYBRIDGE_INSTANCE_TAG;
    gd.object_set_instance(object, &class_name, instance);
    if (p_notify_postinitialize)
        notify_postinitialize(object);
    return object;
}

static void free_instance(void *class_userdata, GDExtensionClassInstancePtr p_instance)
{
    (void)class_userdata;
    struct pybridge_instance *instance = p_instance;
    if (instance != NULL && instance != &shared_instance) {
        instance->tag = 0;
        free(instance);
    }
}

#define PYBRIDGE_MAX_ARGUMENTS 1

/* A method with String arguments named `argument_names` and a String result. */
static void register_method(const char *name, GDExtensionClassMethodCall call,
                            GDExtensionClassMethodPtrCall ptrcall, uint32_t flags,
                            uint32_t argument_count, const char *const *argument_names)
{
    if (argument_count > PYBRIDGE_MAX_ARGUMENTS)
        return;
    /* The engine copies every name and description during the call, so all of these are
       released before returning. */
    PyBridgeGdStringName method_name, empty_name, argument_name[PYBRIDGE_MAX_ARGUMENTS];
    PyBridgeGdString empty_text;
    gd.string_name_new_with_latin1_chars(&method_name, name, 0);
    gd.string_name_new_with_latin1_chars(&empty_name, "", 0);
    new_string(&empty_text, "");

    GDExtensionPropertyInfo result = {
        .type = GDEXTENSION_VARIANT_TYPE_STRING,
        .name = &empty_name,
        .class_name = &empty_name,
        .hint = PYBRIDGE_GD_PROPERTY_HINT_NONE,
        .hint_string = &empty_text,
        .usage = PYBRIDGE_GD_PROPERTY_USAGE_DEFAULT,
    };
    GDExtensionPropertyInfo arguments[PYBRIDGE_MAX_ARGUMENTS];
    GDExtensionClassMethodArgumentMetadata metadata[PYBRIDGE_MAX_ARGUMENTS];
    for (uint32_t i = 0; i < argument_count; i++) {
        gd.string_name_new_with_latin1_chars(&argument_name[i], argument_names[i], 0);
        arguments[i] = result;
        arguments[i].name = &argument_name[i];
        metadata[i] = GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE;
    }

    GDExtensionClassMethodInfo info = {
        .name = &method_name,
        .method_userdata = NULL,
        .call_func = call,
        .ptrcall_func = ptrcall,
        .method_flags = flags,
        .has_return_value = 1,
        .return_value_info = &result,
        .return_value_metadata = GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE,
        .argument_count = argument_count,
        .arguments_info = argument_count > 0 ? arguments : NULL,
        .arguments_metadata = argument_count > 0 ? metadata : NULL,
        .default_argument_count = 0,
        .default_arguments = NULL,
    };
    gd.classdb_register_extension_class_method(gd.library, &class_name, &info);

    for (uint32_t i = 0; i < argument_count; i++)
        types.string_name_destroy(&argument_name[i]);
    types.string_destroy(&empty_text);
    types.string_name_destroy(&empty_name);
    types.string_name_destroy(&method_name);
}

static void register_class(void)
{
    types.variant_from_string =
        gd.get_variant_from_type_constructor(GDEXTENSION_VARIANT_TYPE_STRING);
    types.string_from_variant = gd.get_variant_to_type_constructor(GDEXTENSION_VARIANT_TYPE_STRING);
    types.string_destroy = gd.variant_get_ptr_destructor(GDEXTENSION_VARIANT_TYPE_STRING);
    types.string_name_destroy = gd.variant_get_ptr_destructor(GDEXTENSION_VARIANT_TYPE_STRING_NAME);
    if (types.variant_from_string == NULL || types.string_from_variant == NULL ||
        types.string_destroy == NULL || types.string_name_destroy == NULL) {
        report(__func__, __LINE__,
               "PyBridge: the engine gave no String conversion or destructor; the class is "
               "not registered");
        return;
    }

    PyBridgeGdStringName object_name, notification_name;
    gd.string_name_new_with_latin1_chars(&object_name, "Object", 0);
    gd.string_name_new_with_latin1_chars(&notification_name, "notification", 0);
    types.object_notification = gd.classdb_get_method_bind(&object_name, &notification_name,
                                                           PYBRIDGE_GD_OBJECT_NOTIFICATION_HASH);
    types.string_name_destroy(&notification_name);
    types.string_name_destroy(&object_name);
    if (types.object_notification == NULL)
        report(__func__, __LINE__,
               "PyBridge: the engine has no Object.notification(int, bool); new PyBridgeNative "
               "objects get no NOTIFICATION_POSTINITIALIZE");

    gd.string_name_new_with_latin1_chars(&class_name, PYBRIDGE_CLASS, 0);
    gd.string_name_new_with_latin1_chars(&parent_name, PYBRIDGE_PARENT_CLASS, 0);
    GDExtensionClassCreationInfo5 info;
    memset(&info, 0, sizeof info); /* every optional callback NULL */
    info.is_exposed = 1;
    info.create_instance_func = create_instance;
    info.free_instance_func = free_instance;
    gd.register_extension_class(gd.library, &class_name, &parent_name, &info);

    static const char *const call_json_arguments[] = {"request"};
    register_method("call_json", call_json_call, call_json_ptrcall,
                    GDEXTENSION_METHOD_FLAGS_DEFAULT, 1, call_json_arguments);
    register_method("version", version_call, version_ptrcall,
                    GDEXTENSION_METHOD_FLAG_NORMAL | GDEXTENSION_METHOD_FLAG_CONST, 0, NULL);
    class_registered = 1;
}

static void initialize(void *userdata, GDExtensionInitializationLevel level)
{
    (void)userdata;
    if (level == GDEXTENSION_INITIALIZATION_SCENE && !class_registered)
        register_class();
}

static void deinitialize(void *userdata, GDExtensionInitializationLevel level)
{
    (void)userdata;
    if (level != GDEXTENSION_INITIALIZATION_SCENE || !class_registered)
        return;
    gd.classdb_unregister_extension_class(gd.library, &class_name);
    types.string_name_destroy(&class_name);
    types.string_name_destroy(&parent_name);
    class_registered = 0;
}

/* -- the entry symbol ---------------------------------------------------------------------- */

/* Looks one function up; a missing one is reported and counted. */
static GDExtensionInterfaceFunctionPtr lookup(GDExtensionInterfaceGetProcAddress get_proc_address,
                                              const char *name, int *missing)
{
    GDExtensionInterfaceFunctionPtr function = get_proc_address(name);
    if (function == NULL) {
        char message[160];
        snprintf(message, sizeof message,
                 "PyBridge: this Godot has no GDExtension interface function '%s'", name);
        report("pybridge_gdextension_init", __LINE__, message);
        (*missing)++;
    }
    return function;
}

#define PYBRIDGE_LOOKUP(field, type, name) \
    gd.field = (type)lookup(p_get_proc_address, name, &missing)

/* The running engine's version, through get_godot_version (4.1 and later; deprecated, but
   still offered, since 4.5) or, in builds without deprecated functions, get_godot_version2.
   Returns 0 if neither is offered. */
static int godot_version(GDExtensionInterfaceGetProcAddress p_get_proc_address, uint32_t *major,
                         uint32_t *minor)
{
    GDExtensionInterfaceGetGodotVersion get_version =
        (GDExtensionInterfaceGetGodotVersion)p_get_proc_address("get_godot_version");
    if (get_version != NULL) {
        GDExtensionGodotVersion version;
        memset(&version, 0, sizeof version);
        get_version(&version);
        *major = version.major;
        *minor = version.minor;
        return 1;
    }
    GDExtensionInterfaceGetGodotVersion2 get_version2 =
        (GDExtensionInterfaceGetGodotVersion2)p_get_proc_address("get_godot_version2");
    if (get_version2 != NULL) {
        GDExtensionGodotVersion2 version;
        memset(&version, 0, sizeof version);
        get_version2(&version);
        *major = version.major;
        *minor = version.minor;
        return 1;
    }
    return 0;
}

PYBRIDGE_GD_EXPORT GDExtensionBool
pybridge_gdextension_init(GDExtensionInterfaceGetProcAddress p_get_proc_address,
                          GDExtensionClassLibraryPtr p_library,
                          GDExtensionInitialization *r_initialization)
{
    if (p_get_proc_address == NULL || p_library == NULL || r_initialization == NULL)
        return 0;
    if (class_registered) /* entered again while the class is live: refuse, change nothing */
        return 0;
    memset(&gd, 0, sizeof gd);
    gd.library = p_library;
    gd.print_error = (GDExtensionInterfacePrintError)p_get_proc_address("print_error");

    uint32_t major = 0, minor = 0;
    if (!godot_version(p_get_proc_address, &major, &minor)) {
        report(__func__, __LINE__, "PyBridge: this Godot does not tell its version");
        return 0;
    }
    if (major < PYBRIDGE_GODOT_MAJOR ||
        (major == PYBRIDGE_GODOT_MAJOR && minor < PYBRIDGE_GODOT_MINOR)) {
        char message[120];
        snprintf(message, sizeof message, "PyBridge needs Godot 4.4 or newer, this is %u.%u",
                 major, minor);
        report(__func__, __LINE__, message);
        return 0;
    }

    int missing = gd.print_error == NULL;
    if (missing)
        fprintf(stderr, "libpybridge: this Godot has no interface function 'print_error'\n");
    /* Ask only for what this version has: Godot logs an error for every unknown name. */
    if (major == 4 && minor == 4)
        PYBRIDGE_LOOKUP(register_extension_class, GDExtensionInterfaceClassdbRegisterExtensionClass5,
                        "classdb_register_extension_class4");
    else
        PYBRIDGE_LOOKUP(register_extension_class, GDExtensionInterfaceClassdbRegisterExtensionClass5,
                        "classdb_register_extension_class5");
    PYBRIDGE_LOOKUP(classdb_register_extension_class_method,
                    GDExtensionInterfaceClassdbRegisterExtensionClassMethod,
                    "classdb_register_extension_class_method");
    PYBRIDGE_LOOKUP(classdb_unregister_extension_class,
                    GDExtensionInterfaceClassdbUnregisterExtensionClass,
                    "classdb_unregister_extension_class");
    PYBRIDGE_LOOKUP(classdb_construct_object2, GDExtensionInterfaceClassdbConstructObject2,
                    "classdb_construct_object2");
    PYBRIDGE_LOOKUP(object_set_instance, GDExtensionInterfaceObjectSetInstance,
                    "object_set_instance");
    PYBRIDGE_LOOKUP(classdb_get_method_bind, GDExtensionInterfaceClassdbGetMethodBind,
                    "classdb_get_method_bind");
    PYBRIDGE_LOOKUP(object_method_bind_ptrcall, GDExtensionInterfaceObjectMethodBindPtrcall,
                    "object_method_bind_ptrcall");
    PYBRIDGE_LOOKUP(string_name_new_with_latin1_chars,
                    GDExtensionInterfaceStringNameNewWithLatin1Chars,
                    "string_name_new_with_latin1_chars");
    PYBRIDGE_LOOKUP(string_new_with_utf8_chars_and_len2,
                    GDExtensionInterfaceStringNewWithUtf8CharsAndLen2,
                    "string_new_with_utf8_chars_and_len2");
    PYBRIDGE_LOOKUP(string_to_utf8_chars, GDExtensionInterfaceStringToUtf8Chars,
                    "string_to_utf8_chars");
    PYBRIDGE_LOOKUP(variant_get_type, GDExtensionInterfaceVariantGetType, "variant_get_type");
    PYBRIDGE_LOOKUP(variant_stringify, GDExtensionInterfaceVariantStringify, "variant_stringify");
    PYBRIDGE_LOOKUP(variant_destroy, GDExtensionInterfaceVariantDestroy, "variant_destroy");
    PYBRIDGE_LOOKUP(get_variant_from_type_constructor,
                    GDExtensionInterfaceGetVariantFromTypeConstructor,
                    "get_variant_from_type_constructor");
    PYBRIDGE_LOOKUP(get_variant_to_type_constructor,
                    GDExtensionInterfaceGetVariantToTypeConstructor,
                    "get_variant_to_type_constructor");
    PYBRIDGE_LOOKUP(variant_get_ptr_destructor, GDExtensionInterfaceVariantGetPtrDestructor,
                    "variant_get_ptr_destructor");
    if (missing > 0)
        return 0;

    r_initialization->minimum_initialization_level = GDEXTENSION_INITIALIZATION_SCENE;
    r_initialization->userdata = NULL;
    r_initialization->initialize = initialize;
    r_initialization->deinitialize = deinitialize;
    return 1;
}

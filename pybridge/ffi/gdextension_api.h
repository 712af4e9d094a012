/* gdextension_api.h: the part of Godot's GDExtension interface that libpybridge uses.
 *
 * Written for Godot 4.4, 4.5 and 4.6 from the engine's public interface description.
 * Only what the library (gdextension.c) and its simulated host (tests/c/godot_host.c)
 * need is declared; both include this one header, so they cannot disagree.
 *
 * How the interface works, in short:
 *  - Godot calls the library's entry symbol with a lookup function. Every other engine
 *    function is fetched by name through that lookup ("get_proc_address"); a name the
 *    running engine does not know yields NULL (and an error in Godot's log).
 *  - Engine values cross the boundary as pointers to storage the caller owns: a String
 *    or StringName is one pointer wide, a Variant is 24 bytes (64-bit, single-precision
 *    builds, which is what the official desktop builds are). Storage is "uninitialized"
 *    when a function constructs into it and "initialized" when it holds a live value.
 *  - Structs passed to the engine are read during the call only, unless noted.
 *
 * The layouts below were checked field by field against the engine's published header
 * for 4.4 and 4.6; the static assertions at the end pin them on 64-bit targets.
 */
#ifndef PYBRIDGE_GDEXTENSION_API_H
#define PYBRIDGE_GDEXTENSION_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* -- scalars and opaque handles ------------------------------------------------------ */

typedef uint8_t GDExtensionBool; /* one byte: 0 or 1 */
typedef int64_t GDExtensionInt;

typedef void *GDExtensionVariantPtr;
typedef const void *GDExtensionConstVariantPtr;
typedef void *GDExtensionUninitializedVariantPtr;
typedef void *GDExtensionStringPtr;
typedef const void *GDExtensionConstStringPtr;
typedef void *GDExtensionUninitializedStringPtr;
typedef void *GDExtensionStringNamePtr;
typedef const void *GDExtensionConstStringNamePtr;
typedef void *GDExtensionUninitializedStringNamePtr;
typedef void *GDExtensionObjectPtr;
typedef void *GDExtensionTypePtr;
typedef const void *GDExtensionConstTypePtr;
typedef void *GDExtensionUninitializedTypePtr;
typedef void *GDExtensionClassInstancePtr; /* the extension's own per-object data */
typedef void *GDExtensionClassLibraryPtr;  /* Godot's token for this library */
typedef const void *GDExtensionMethodBindPtr; /* an engine method, for object_method_bind_* */

/* Storage for engine values on our side of the boundary. Only their size and alignment
   matter; the contents belong to the engine. */
#define PYBRIDGE_GD_STRING_SIZE 8
#define PYBRIDGE_GD_STRING_NAME_SIZE 8
#define PYBRIDGE_GD_VARIANT_SIZE 24

typedef struct {
    _Alignas(8) uint8_t opaque[PYBRIDGE_GD_STRING_SIZE];
} PyBridgeGdString;

typedef struct {
    _Alignas(8) uint8_t opaque[PYBRIDGE_GD_STRING_NAME_SIZE];
} PyBridgeGdStringName;

typedef struct {
    _Alignas(8) uint8_t opaque[PYBRIDGE_GD_VARIANT_SIZE];
} PyBridgeGdVariant;

/* -- Variant types (only those used here; the numbering is the engine's) -------------- */

typedef enum {
    GDEXTENSION_VARIANT_TYPE_NIL = 0,
    GDEXTENSION_VARIANT_TYPE_BOOL = 1,
    GDEXTENSION_VARIANT_TYPE_INT = 2,
    GDEXTENSION_VARIANT_TYPE_FLOAT = 3,
    GDEXTENSION_VARIANT_TYPE_STRING = 4,
    GDEXTENSION_VARIANT_TYPE_STRING_NAME = 21,
    GDEXTENSION_VARIANT_TYPE_NODE_PATH = 22,
    GDEXTENSION_VARIANT_TYPE_OBJECT = 24,
    GDEXTENSION_VARIANT_TYPE_DICTIONARY = 27,
    GDEXTENSION_VARIANT_TYPE_ARRAY = 28,
    GDEXTENSION_VARIANT_TYPE_VARIANT_MAX = 39, /* 4.3 and later (PackedVector4Array is 38) */
} GDExtensionVariantType;

/* Object::NOTIFICATION_POSTINITIALIZE, and the hash the engine publishes for the method
   Object.notification(what: int, reversed: bool = false) (extension_api.json, 4.x). */
#define PYBRIDGE_GD_NOTIFICATION_POSTINITIALIZE 0
#define PYBRIDGE_GD_OBJECT_NOTIFICATION_HASH 4023243586

/* -- calling convention of class methods ---------------------------------------------- */

typedef enum {
    GDEXTENSION_CALL_OK = 0,
    GDEXTENSION_CALL_ERROR_INVALID_METHOD = 1,
    GDEXTENSION_CALL_ERROR_INVALID_ARGUMENT = 2,   /* `expected` holds the wanted type */
    GDEXTENSION_CALL_ERROR_TOO_MANY_ARGUMENTS = 3, /* `expected` holds the count */
    GDEXTENSION_CALL_ERROR_TOO_FEW_ARGUMENTS = 4,  /* `expected` holds the count */
    GDEXTENSION_CALL_ERROR_INSTANCE_IS_NULL = 5,
    GDEXTENSION_CALL_ERROR_METHOD_NOT_CONST = 6,
} GDExtensionCallErrorType;

typedef struct {
    GDExtensionCallErrorType error; /* 4 bytes */
    int32_t argument;               /* index of the offending argument */
    int32_t expected;
} GDExtensionCallError;

/* Variant-based call: p_args[i] points at a live Variant; r_return points at a live
   Variant (Godot passes a fresh nil one) that receives the result. */
typedef void (*GDExtensionClassMethodCall)(void *method_userdata,
                                           GDExtensionClassInstancePtr p_instance,
                                           const GDExtensionConstVariantPtr *p_args,
                                           GDExtensionInt p_argument_count,
                                           GDExtensionVariantPtr r_return,
                                           GDExtensionCallError *r_error);

/* Typed call: p_args[i] points at the argument's own type (a String for a String
   parameter), r_ret at a live value of the return type that is to be assigned. The engine
   has already checked the argument count and types. */
typedef void (*GDExtensionClassMethodPtrCall)(void *method_userdata,
                                              GDExtensionClassInstancePtr p_instance,
                                              const GDExtensionConstTypePtr *p_args,
                                              GDExtensionTypePtr r_ret);

typedef enum {
    GDEXTENSION_METHOD_FLAG_NORMAL = 1,
    GDEXTENSION_METHOD_FLAG_EDITOR = 2,
    GDEXTENSION_METHOD_FLAG_CONST = 4,
    GDEXTENSION_METHOD_FLAG_VIRTUAL = 8,
    GDEXTENSION_METHOD_FLAG_VARARG = 16,
    GDEXTENSION_METHOD_FLAG_STATIC = 32,
    GDEXTENSION_METHOD_FLAGS_DEFAULT = GDEXTENSION_METHOD_FLAG_NORMAL,
} GDExtensionClassMethodFlags;

typedef enum {
    GDEXTENSION_METHOD_ARGUMENT_METADATA_NONE = 0,
} GDExtensionClassMethodArgumentMetadata; /* 4 bytes, like every enum here */

/* Property usage and hint bits used for method arguments and return values. */
#define PYBRIDGE_GD_PROPERTY_HINT_NONE 0u
#define PYBRIDGE_GD_PROPERTY_USAGE_DEFAULT 6u /* storage (2) | editor (4) */

/* Describes one argument or return value. The engine dereferences all three pointers
   (they must point at live StringName / String values, empty ones at least). */
typedef struct {
    GDExtensionVariantType type;          /* offset 0 */
    GDExtensionStringNamePtr name;        /* offset 8 */
    GDExtensionStringNamePtr class_name;  /* offset 16: empty unless an Object type */
    uint32_t hint;                        /* offset 24 */
    GDExtensionStringPtr hint_string;     /* offset 32 */
    uint32_t usage;                       /* offset 40 */
} GDExtensionPropertyInfo;                /* 48 bytes */

typedef struct {
    GDExtensionStringNamePtr name;              /* offset 0 */
    void *method_userdata;                      /* offset 8: handed back to both calls */
    GDExtensionClassMethodCall call_func;       /* offset 16 */
    GDExtensionClassMethodPtrCall ptrcall_func; /* offset 24 */
    uint32_t method_flags;                      /* offset 32: GDExtensionClassMethodFlags */
    GDExtensionBool has_return_value;           /* offset 36 */
    GDExtensionPropertyInfo *return_value_info; /* offset 40: read if has_return_value */
    GDExtensionClassMethodArgumentMetadata return_value_metadata; /* offset 48 */
    uint32_t argument_count;                    /* offset 52 */
    GDExtensionPropertyInfo *arguments_info;    /* offset 56: argument_count entries */
    GDExtensionClassMethodArgumentMetadata *arguments_metadata; /* offset 64: same count */
    uint32_t default_argument_count;            /* offset 72 */
    GDExtensionVariantPtr *default_arguments;   /* offset 80 */
} GDExtensionClassMethodInfo;                   /* 88 bytes */

/* -- class registration ---------------------------------------------------------------- */

typedef GDExtensionBool (*GDExtensionClassSet)(GDExtensionClassInstancePtr p_instance,
                                               GDExtensionConstStringNamePtr p_name,
                                               GDExtensionConstVariantPtr p_value);
typedef GDExtensionBool (*GDExtensionClassGet)(GDExtensionClassInstancePtr p_instance,
                                               GDExtensionConstStringNamePtr p_name,
                                               GDExtensionVariantPtr r_ret);
typedef const GDExtensionPropertyInfo *(*GDExtensionClassGetPropertyList)(
    GDExtensionClassInstancePtr p_instance, uint32_t *r_count);
typedef void (*GDExtensionClassFreePropertyList2)(GDExtensionClassInstancePtr p_instance,
                                                  const GDExtensionPropertyInfo *p_list,
                                                  uint32_t p_count);
typedef GDExtensionBool (*GDExtensionClassPropertyCanRevert)(
    GDExtensionClassInstancePtr p_instance, GDExtensionConstStringNamePtr p_name);
typedef GDExtensionBool (*GDExtensionClassPropertyGetRevert)(
    GDExtensionClassInstancePtr p_instance, GDExtensionConstStringNamePtr p_name,
    GDExtensionVariantPtr r_ret);
typedef GDExtensionBool (*GDExtensionClassValidateProperty)(
    GDExtensionClassInstancePtr p_instance, GDExtensionPropertyInfo *p_property);
typedef void (*GDExtensionClassNotification2)(GDExtensionClassInstancePtr p_instance,
                                              int32_t p_what, GDExtensionBool p_reversed);
typedef void (*GDExtensionClassToString)(GDExtensionClassInstancePtr p_instance,
                                         GDExtensionBool *r_is_valid,
                                         GDExtensionStringPtr p_out);
typedef void (*GDExtensionClassReference)(GDExtensionClassInstancePtr p_instance);
typedef void (*GDExtensionClassUnreference)(GDExtensionClassInstancePtr p_instance);
typedef void (*GDExtensionClassCallVirtual)(GDExtensionClassInstancePtr p_instance,
                                            const GDExtensionConstTypePtr *p_args,
                                            GDExtensionTypePtr r_ret);
/* Makes a new object of the class: construct the engine parent, attach our instance with
   object_set_instance, return the engine object. */
typedef GDExtensionObjectPtr (*GDExtensionClassCreateInstance2)(
    void *p_class_userdata, GDExtensionBool p_notify_postinitialize);
/* Called by the engine when the object dies: release what create_instance attached. */
typedef void (*GDExtensionClassFreeInstance)(void *p_class_userdata,
                                             GDExtensionClassInstancePtr p_instance);
typedef GDExtensionClassInstancePtr (*GDExtensionClassRecreateInstance)(
    void *p_class_userdata, GDExtensionObjectPtr p_object);
typedef GDExtensionClassCallVirtual (*GDExtensionClassGetVirtual2)(
    void *p_class_userdata, GDExtensionConstStringNamePtr p_name, uint32_t p_hash);
typedef void *(*GDExtensionClassGetVirtualCallData2)(void *p_class_userdata,
                                                     GDExtensionConstStringNamePtr p_name,
                                                     uint32_t p_hash);
typedef void (*GDExtensionClassCallVirtualWithData)(GDExtensionClassInstancePtr p_instance,
                                                    GDExtensionConstStringNamePtr p_name,
                                                    void *p_virtual_call_userdata,
                                                    const GDExtensionConstTypePtr *p_args,
                                                    GDExtensionTypePtr r_ret);

/* The class description taken by classdb_register_extension_class4 (4.4) and, unchanged,
   by classdb_register_extension_class5 (4.5 and later). Optional callbacks may be NULL;
   create_instance_func and free_instance_func are required. */
typedef struct {
    GDExtensionBool is_virtual;                      /* offset 0 */
    GDExtensionBool is_abstract;                     /* offset 1 */
    GDExtensionBool is_exposed;                      /* offset 2: visible to scripts */
    GDExtensionBool is_runtime;                      /* offset 3: placeholder in editor */
    GDExtensionConstStringPtr icon_path;             /* offset 8: String or NULL */
    GDExtensionClassSet set_func;                    /* offset 16 */
    GDExtensionClassGet get_func;                    /* offset 24 */
    GDExtensionClassGetPropertyList get_property_list_func;      /* offset 32 */
    GDExtensionClassFreePropertyList2 free_property_list_func;   /* offset 40 */
    GDExtensionClassPropertyCanRevert property_can_revert_func;  /* offset 48 */
    GDExtensionClassPropertyGetRevert property_get_revert_func;  /* offset 56 */
    GDExtensionClassValidateProperty validate_property_func;     /* offset 64 */
    GDExtensionClassNotification2 notification_func;             /* offset 72 */
    GDExtensionClassToString to_string_func;                     /* offset 80 */
    GDExtensionClassReference reference_func;                    /* offset 88 */
    GDExtensionClassUnreference unreference_func;                /* offset 96 */
    GDExtensionClassCreateInstance2 create_instance_func;        /* offset 104 */
    GDExtensionClassFreeInstance free_instance_func;             /* offset 112 */
    GDExtensionClassRecreateInstance recreate_instance_func;     /* offset 120 */
    GDExtensionClassGetVirtual2 get_virtual_func;                /* offset 128 */
    GDExtensionClassGetVirtualCallData2 get_virtual_call_data_func; /* offset 136 */
    GDExtensionClassCallVirtualWithData call_virtual_with_data_func; /* offset 144 */
    void *class_userdata;                            /* offset 152: handed to the callbacks */
} GDExtensionClassCreationInfo4;                     /* 160 bytes */

typedef GDExtensionClassCreationInfo4 GDExtensionClassCreationInfo5;

/* -- initialization ---------------------------------------------------------------------- */

typedef enum {
    GDEXTENSION_INITIALIZATION_CORE = 0,
    GDEXTENSION_INITIALIZATION_SERVERS = 1,
    GDEXTENSION_INITIALIZATION_SCENE = 2,
    GDEXTENSION_INITIALIZATION_EDITOR = 3,
    GDEXTENSION_MAX_INITIALIZATION_LEVEL = 4,
} GDExtensionInitializationLevel;

/* Called once per level on the way up (core first) and on the way down (editor first). */
typedef void (*GDExtensionInitializeCallback)(void *p_userdata,
                                              GDExtensionInitializationLevel p_level);
typedef void (*GDExtensionDeinitializeCallback)(void *p_userdata,
                                                GDExtensionInitializationLevel p_level);

/* Filled in by the entry symbol. */
typedef struct {
    GDExtensionInitializationLevel minimum_initialization_level; /* offset 0 */
    void *userdata;                                              /* offset 8 */
    GDExtensionInitializeCallback initialize;                    /* offset 16 */
    GDExtensionDeinitializeCallback deinitialize;                /* offset 24 */
} GDExtensionInitialization;                                     /* 32 bytes */

/* What get_proc_address returns: cast it to the function's own type before calling. */
typedef void (*GDExtensionInterfaceFunctionPtr)(void);
typedef GDExtensionInterfaceFunctionPtr (*GDExtensionInterfaceGetProcAddress)(
    const char *p_function_name);

/* The entry symbol's type. Returns 1 when the library can run in this engine. */
typedef GDExtensionBool (*GDExtensionInitializationFunction)(
    GDExtensionInterfaceGetProcAddress p_get_proc_address, GDExtensionClassLibraryPtr p_library,
    GDExtensionInitialization *r_initialization);

/* -- interface functions, by the name they are looked up with ---------------------------- */

typedef struct {
    uint32_t major;
    uint32_t minor;
    uint32_t patch;
    const char *string; /* e.g. "Godot Engine v4.6.stable.official" */
} GDExtensionGodotVersion;

typedef struct {
    uint32_t major;
    uint32_t minor;
    uint32_t patch;
    uint32_t hex; /* 0xMMmmpp */
    const char *status;
    const char *build;
    const char *hash;
    uint64_t timestamp;
    const char *string;
} GDExtensionGodotVersion2;

/* "get_godot_version" (4.1; deprecated but still present in 4.5 and 4.6) */
typedef void (*GDExtensionInterfaceGetGodotVersion)(GDExtensionGodotVersion *r_godot_version);
/* "get_godot_version2" (4.5) */
typedef void (*GDExtensionInterfaceGetGodotVersion2)(GDExtensionGodotVersion2 *r_godot_version);

/* "print_error" (4.1): logs to the editor's Output/Debugger and to the terminal. */
typedef void (*GDExtensionInterfacePrintError)(const char *p_description, const char *p_function,
                                               const char *p_file, int32_t p_line,
                                               GDExtensionBool p_editor_notify);

/* "variant_stringify" (4.1): the Variant as the engine writes it as a String (what
   String(value) or str(value) gives in GDScript). The engine constructs the String in
   r_ret, so the storage must be uninitialized. */
typedef void (*GDExtensionInterfaceVariantStringify)(GDExtensionConstVariantPtr p_self,
                                                     GDExtensionStringPtr r_ret);

/* "variant_destroy" (4.1): releases a live Variant; its storage becomes uninitialized. */
typedef void (*GDExtensionInterfaceVariantDestroy)(GDExtensionVariantPtr p_self);
/* "variant_get_type" (4.1) */
typedef GDExtensionVariantType (*GDExtensionInterfaceVariantGetType)(
    GDExtensionConstVariantPtr p_self);

/* Builds a Variant from a value of its type (the value is copied, not consumed). */
typedef void (*GDExtensionVariantFromTypeConstructorFunc)(GDExtensionUninitializedVariantPtr,
                                                          GDExtensionTypePtr);
/* Copies the value out of a Variant that holds exactly that type. */
typedef void (*GDExtensionTypeFromVariantConstructorFunc)(GDExtensionUninitializedTypePtr,
                                                          GDExtensionVariantPtr);
/* "get_variant_from_type_constructor" (4.1) */
typedef GDExtensionVariantFromTypeConstructorFunc (
    *GDExtensionInterfaceGetVariantFromTypeConstructor)(GDExtensionVariantType p_type);
/* "get_variant_to_type_constructor" (4.1) */
typedef GDExtensionTypeFromVariantConstructorFunc (
    *GDExtensionInterfaceGetVariantToTypeConstructor)(GDExtensionVariantType p_type);

/* Releases a live value of one type; its storage becomes uninitialized. */
typedef void (*GDExtensionPtrDestructor)(GDExtensionTypePtr p_base);
/* "variant_get_ptr_destructor" (4.1): NULL for types that need no destructor. */
typedef GDExtensionPtrDestructor (*GDExtensionInterfaceVariantGetPtrDestructor)(
    GDExtensionVariantType p_type);

/* "string_new_with_utf8_chars_and_len2" (4.3): constructs a String from p_size bytes of
   UTF-8 (no terminator needed). Returns 0 on success, an error code when the bytes were
   not valid UTF-8 (the String is still constructed, with replacement characters). */
typedef GDExtensionInt (*GDExtensionInterfaceStringNewWithUtf8CharsAndLen2)(
    GDExtensionUninitializedStringPtr r_dest, const char *p_contents, GDExtensionInt p_size);
/* "string_to_utf8_chars" (4.1): writes at most p_max_write_length bytes of the UTF-8
   form (no terminator) into r_text if it is not NULL; returns the full length in bytes. */
typedef GDExtensionInt (*GDExtensionInterfaceStringToUtf8Chars)(GDExtensionConstStringPtr p_self,
                                                                char *r_text,
                                                                GDExtensionInt p_max_write_length);
/* "string_name_new_with_latin1_chars" (4.2): constructs a StringName. With p_is_static the
   engine keeps pointing at p_contents and the name must never be destroyed. */
typedef void (*GDExtensionInterfaceStringNameNewWithLatin1Chars)(
    GDExtensionUninitializedStringNamePtr r_dest, const char *p_contents,
    GDExtensionBool p_is_static);

/* "classdb_construct_object2" (4.4): makes an object of an engine class without sending it
   NOTIFICATION_POSTINITIALIZE; the extension attaches its instance, then sends it (when the
   engine asked create_instance to) through Object.notification, as godot-cpp does. */
typedef GDExtensionObjectPtr (*GDExtensionInterfaceClassdbConstructObject2)(
    GDExtensionConstStringNamePtr p_classname);
/* "classdb_get_method_bind" (4.1): an engine class's method, checked against the hash of
   its signature; NULL (and an error in Godot's log) when name or hash do not match. */
typedef GDExtensionMethodBindPtr (*GDExtensionInterfaceClassdbGetMethodBind)(
    GDExtensionConstStringNamePtr p_classname, GDExtensionConstStringNamePtr p_methodname,
    GDExtensionInt p_hash);
/* "object_method_bind_ptrcall" (4.1): calls it on an object with typed arguments (an int
   argument as int64_t, a bool as one byte); r_ret may be NULL for a method returning
   nothing. */
typedef void (*GDExtensionInterfaceObjectMethodBindPtrcall)(GDExtensionMethodBindPtr p_method_bind,
                                                            GDExtensionObjectPtr p_instance,
                                                            const GDExtensionConstTypePtr *p_args,
                                                            GDExtensionTypePtr r_ret);
/* "object_set_instance" (4.1): attaches an extension instance to an engine object. */
typedef void (*GDExtensionInterfaceObjectSetInstance)(GDExtensionObjectPtr p_o,
                                                      GDExtensionConstStringNamePtr p_classname,
                                                      GDExtensionClassInstancePtr p_instance);

/* "classdb_register_extension_class4" (4.4; deprecated in 4.5) and
   "classdb_register_extension_class5" (4.5): the struct may be freed on return. */
typedef void (*GDExtensionInterfaceClassdbRegisterExtensionClass4)(
    GDExtensionClassLibraryPtr p_library, GDExtensionConstStringNamePtr p_class_name,
    GDExtensionConstStringNamePtr p_parent_class_name,
    const GDExtensionClassCreationInfo4 *p_extension_funcs);
typedef void (*GDExtensionInterfaceClassdbRegisterExtensionClass5)(
    GDExtensionClassLibraryPtr p_library, GDExtensionConstStringNamePtr p_class_name,
    GDExtensionConstStringNamePtr p_parent_class_name,
    const GDExtensionClassCreationInfo5 *p_extension_funcs);
/* "classdb_register_extension_class_method" (4.1): the struct and the names it points at
   may be released on return (the engine copies them). */
typedef void (*GDExtensionInterfaceClassdbRegisterExtensionClassMethod)(
    GDExtensionClassLibraryPtr p_library, GDExtensionConstStringNamePtr p_class_name,
    const GDExtensionClassMethodInfo *p_method_info);
/* "classdb_unregister_extension_class" (4.1) */
typedef void (*GDExtensionInterfaceClassdbUnregisterExtensionClass)(
    GDExtensionClassLibraryPtr p_library, GDExtensionConstStringNamePtr p_class_name);

/* -- layout checks (64-bit targets) ------------------------------------------------------ */

#if UINTPTR_MAX == UINT64_MAX
#define PYBRIDGE_GD_LAYOUT(type, field, offset)                                              \
    _Static_assert(offsetof(type, field) == (offset), #type "." #field " is at " #offset)
_Static_assert(sizeof(GDExtensionCallError) == 12, "GDExtensionCallError is 12 bytes");
_Static_assert(sizeof(GDExtensionVariantType) == 4, "enums are 4 bytes");
_Static_assert(sizeof(GDExtensionPropertyInfo) == 48, "GDExtensionPropertyInfo is 48 bytes");
PYBRIDGE_GD_LAYOUT(GDExtensionPropertyInfo, name, 8);
PYBRIDGE_GD_LAYOUT(GDExtensionPropertyInfo, hint, 24);
PYBRIDGE_GD_LAYOUT(GDExtensionPropertyInfo, hint_string, 32);
PYBRIDGE_GD_LAYOUT(GDExtensionPropertyInfo, usage, 40);
_Static_assert(sizeof(GDExtensionClassMethodInfo) == 88, "GDExtensionClassMethodInfo is 88 bytes");
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, method_flags, 32);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, has_return_value, 36);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, return_value_info, 40);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, return_value_metadata, 48);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, argument_count, 52);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, arguments_info, 56);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, arguments_metadata, 64);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, default_argument_count, 72);
PYBRIDGE_GD_LAYOUT(GDExtensionClassMethodInfo, default_arguments, 80);
_Static_assert(sizeof(GDExtensionClassCreationInfo4) == 160, "ClassCreationInfo4 is 160 bytes");
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, is_runtime, 3);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, icon_path, 8);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, set_func, 16);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, notification_func, 72);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, create_instance_func, 104);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, free_instance_func, 112);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, get_virtual_func, 128);
PYBRIDGE_GD_LAYOUT(GDExtensionClassCreationInfo4, class_userdata, 152);
_Static_assert(sizeof(GDExtensionInitialization) == 32, "GDExtensionInitialization is 32 bytes");
PYBRIDGE_GD_LAYOUT(GDExtensionInitialization, userdata, 8);
PYBRIDGE_GD_LAYOUT(GDExtensionInitialization, initialize, 16);
PYBRIDGE_GD_LAYOUT(GDExtensionInitialization, deinitialize, 24);
_Static_assert(sizeof(GDExtensionGodotVersion) == 24, "GDExtensionGodotVersion is 24 bytes");
PYBRIDGE_GD_LAYOUT(GDExtensionGodotVersion2, status, 16);
PYBRIDGE_GD_LAYOUT(GDExtensionGodotVersion2, timestamp, 40);
PYBRIDGE_GD_LAYOUT(GDExtensionGodotVersion2, string, 48);
_Static_assert(sizeof(PyBridgeGdVariant) == 24 && sizeof(PyBridgeGdString) == 8 &&
                   sizeof(PyBridgeGdStringName) == 8,
               "Variant is 24 bytes, String and StringName 8");
#undef PYBRIDGE_GD_LAYOUT
#endif

#ifdef __cplusplus
}
#endif

#endif /* PYBRIDGE_GDEXTENSION_API_H */
